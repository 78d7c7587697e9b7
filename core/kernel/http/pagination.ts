/** The pagination block of a paged listing (spec 1, GET /login-history and GET /notifications; spec 3 likewise): the same four fields everywhere. */
export function pagination(page: number, perPage: number, total: number) {
  return { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}
