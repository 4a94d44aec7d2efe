/**
 * The shop's logo: the owner's image when the store settings give one (`src`, with the store's
 * name as its text), else the built-in mark. Both take the same fixed 36 × 36 box, so the header
 * does not move when the image arrives.
 */
export function Logo({ src, alt }: { src?: string; alt?: string }) {
  if (src) return <img className="logo" src={src} alt={alt} width="36" height="36" />;
  return (
    <svg className="logo" viewBox="0 0 40 40" width="36" height="36" aria-hidden="true">
      <rect width="40" height="40" rx="10" fill="var(--brand)" />
      <path
        d="M12 27V13h6.5a4.5 4.5 0 0 1 0 9H15m7 5 6-14"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
