import { DomainError } from "~/lib/domain-error";
import { errorResponse } from "~/lib/http/responder.server";

/** Unknown /api paths answer JSON, not the HTML 404 page. */
const notFound = () => errorResponse(new DomainError(404, "Not found"));
export const loader = notFound;
export const action = notFound;
