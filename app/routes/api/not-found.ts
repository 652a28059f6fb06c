import { apiError } from "~/lib/http.server";

/** Unknown /api paths answer JSON, not the HTML 404 page. */
export const loader = () => apiError(404, "Not found");
export const action = () => apiError(404, "Not found");
