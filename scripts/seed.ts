// Seeds the local D1 database with the demo catalogue when it is empty (filled in by the catalogue).
export async function seedIfEmpty(_persistDir: string): Promise<void> {}
