// DOM helpers: an element by id, and an element built with its attributes, listeners and children.

export const $ = (id) => document.getElementById(id);

export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'html') node.innerHTML = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of [children].flat()) if (child) node.append(child);
  return node;
}
