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
