import { useT } from "../../lib/use-locale";

export type Channel = "email" | "phone";

/** Email or phone: a pair of radio buttons choosing how the visitor names their account. */
export function ChannelSwitch({
  value,
  onChange,
  name,
}: {
  value: Channel;
  onChange: (c: Channel) => void;
  name: string;
}) {
  const t = useT();
  return (
    <fieldset className="channel-switch">
      <legend className="visually-hidden">{t("auth.channel")}</legend>
      {(["email", "phone"] as const).map((c) => (
        <label key={c} className="channel-switch__option">
          <input type="radio" name={name} value={c} checked={value === c} onChange={() => onChange(c)} />
          <span>{c === "email" ? t("auth.useEmail") : t("auth.usePhone")}</span>
        </label>
      ))}
    </fieldset>
  );
}
