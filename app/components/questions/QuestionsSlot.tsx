import { lazy } from "react";
import { BelowFold } from "../BelowFold";
import { useT } from "../../lib/use-locale";

const QuestionsSection = lazy(() => import("./QuestionsSection").then((m) => ({ default: m.QuestionsSection })));

/**
 * Where a product page's questions and answers go (components/BelowFold.tsx): its heading ships
 * with the page, the questions and their code load as the shopper nears them. The anchor is
 * contract/questions.ts QUESTIONS_ANCHOR (the link in the asker's message), written out here, as
 * importing the contract's constants would add a chunk to the page's first load.
 */
export function QuestionsSlot({ slug }: { slug: string }) {
  const t = useT();
  return (
    <BelowFold
      id="questions"
      className="questions"
      title={t("questions.title")}
      ahead="600px"
      placeholder={<p className="muted questions__loading">{t("questions.loading")}</p>}
    >
      <QuestionsSection key={slug} slug={slug} />
    </BelowFold>
  );
}
