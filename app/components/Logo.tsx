/**
 * The shop's logo: the owner's image when the store settings give one (`src`, with the store's
 * name as its text), else the built-in mark. Both take the same fixed 36 × 36 box, so the header
 * does not move when the image arrives. The mark is drawn by app.css (`.logo--mark`), not by
 * script: every page's first load carries this component.
 */
export function Logo({ src, alt }: { src?: string; alt?: string }) {
  if (src) return <img className="logo" src={src} alt={alt} width="36" height="36" />;
  return <span className="logo logo--mark" aria-hidden="true" />;
}
