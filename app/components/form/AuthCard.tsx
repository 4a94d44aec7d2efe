import type { ReactNode } from "react";
import { Stylesheet } from "../../components/Stylesheet";
import accountCss from "../../styles/account.css?url";

/** The frame of the sign-in pages: a centred card with a title, a lead and the form. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="container page auth-page">
      <Stylesheet href={accountCss} />
      <section className="auth-card card" aria-labelledby="auth-title">
        <h1 id="auth-title" className="auth-card__title">
          {title}
        </h1>
        {lead ? <p className="auth-card__lead">{lead}</p> : null}
        {children}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </section>
    </div>
  );
}
