import { notFoundResponse } from "../../lib/console";

/** An unknown console path: the same 404 as anywhere (the console middleware already ran). */
export function loader(): never {
  throw notFoundResponse();
}

export default function ConsoleNotFound() {
  return null;
}
