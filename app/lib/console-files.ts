import { useRouteLoaderData } from "react-router";

/** Where the browser reaches the backend (the root loader's backendBase), for the console's file calls. */
export function useBackendBase(): string {
  return (useRouteLoaderData("root") as { backendBase?: string } | undefined)?.backendBase ?? "/backend";
}

/** Saves a file the console received (a CSV export) under `name`, through a temporary link. */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the object URL; let it go on the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
