/** One page of rows the bot holds itself (merged or filtered reads), in the service's page envelope. */
export function pageOf<T>(rows: readonly T[], page: number, pageSize: number) {
  const totalPages = Math.ceil(rows.length / pageSize);
  return {
    items: rows.slice((page - 1) * pageSize, page * pageSize),
    total: rows.length,
    page,
    pageSize,
    totalPages,
    hasMore: page < totalPages,
  };
}
