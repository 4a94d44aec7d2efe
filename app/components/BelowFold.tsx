import { Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { whenIdle } from "../client/idle";

/**
 * A section of a page below the fold whose body loads late: the page renders only its heading and
 * a placeholder (so its anchor, `#reviews` or `#questions`, is there for a link to open), and
 * `children` (a lazy component) renders once the section comes within `ahead` of the viewport, or
 * in an idle period where the browser has no IntersectionObserver. Neither the body's code nor its
 * data is then in the page's first load (test/http/bundle-budget.test.ts), and it never delays the
 * page becoming usable. The page stays the same for every visitor (it is cached): who is signed in
 * is read by the body, in the browser.
 */
export function BelowFold({
  id,
  className,
  title,
  placeholder,
  ahead = "800px",
  children,
}: {
  id: string;
  className: string;
  title: string;
  placeholder: ReactNode;
  ahead?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || wanted) return;
    if (typeof IntersectionObserver !== "function") return whenIdle(() => setWanted(true));
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setWanted(true), {
      rootMargin: `${ahead} 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [wanted, ahead]);

  return (
    <section id={id} ref={box} className={`section ${className}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {wanted ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}
    </section>
  );
}
