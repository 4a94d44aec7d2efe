import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { whenIdle } from "../../client/idle";
import { useT } from "../../lib/use-locale";

const QuestionsSection = lazy(() => import("./QuestionsSection").then((m) => ({ default: m.QuestionsSection })));

/**
 * The section's anchor, contract/questions.ts QUESTIONS_ANCHOR (the link in the asker's message):
 * written out here, as importing the contract's constants would add a chunk to the page's first load.
 */
const ANCHOR = "questions";

/** How far below the viewport the section starts loading, so it is there when the shopper scrolls to it. */
const AHEAD = "600px";

/**
 * Where a product page's questions and answers go. The page ships only this heading and an empty
 * box: the section's code and its questions load once it nears the viewport (or when the browser
 * has no IntersectionObserver, in an idle period), after the page is usable, so the product page's
 * first load carries none of it (test/http/bundle-budget.test.ts). The page stays the same for
 * every visitor (it is cached, worker/page-cache.ts): who is signed in is read in the browser.
 * A message's link opens it by its anchor (#questions).
 */
export function QuestionsSlot({ slug }: { slug: string }) {
  const t = useT();
  const box = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || wanted) return;
    if (typeof IntersectionObserver !== "function") return whenIdle(() => setWanted(true));
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setWanted(true), {
      rootMargin: `0px 0px ${AHEAD} 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [wanted]);

  const loading = <p className="muted questions__loading">{t("questions.loading")}</p>;
  return (
    <section id={ANCHOR} ref={box} className="section questions" aria-labelledby="questions-title">
      <h2 id="questions-title">{t("questions.title")}</h2>
      {wanted ? (
        <Suspense fallback={loading}>
          <QuestionsSection key={slug} slug={slug} />
        </Suspense>
      ) : (
        loading
      )}
    </section>
  );
}
