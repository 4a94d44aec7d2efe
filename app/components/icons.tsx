/**
 * Small stroke icons, drawn rather than typed: the characters they replace (− U+2212, ← U+2190)
 * are in neither Noto Sans nor Noto Sans Arabic, and one missing glyph sends the browser through
 * every family of the font stack and then the system's fallback search, a visible share of a
 * fresh page's first layout (docs/PERFORMANCE.md). Decorative: the button names the action.
 */
type IconProps = { size?: number; className?: string };

function Stroke({ d, size = 16, className }: IconProps & { d: string }) {
  return (
    <svg aria-hidden="true" className={className} viewBox="0 0 24 24" width={size} height={size}>
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export const MinusIcon = (props: IconProps) => <Stroke d="M5 12h14" {...props} />;
export const PlusIcon = (props: IconProps) => <Stroke d="M5 12h14M12 5v14" {...props} />;
/** Points to the inline start: left, mirrored in Arabic by `icon-flip`. */
export const BackIcon = ({ className = "", ...props }: IconProps) => (
  <Stroke d="M19 12H5M11 6l-6 6 6 6" className={`icon-flip ${className}`.trim()} {...props} />
);
