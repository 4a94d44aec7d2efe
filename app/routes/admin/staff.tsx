import { reset, useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import type { Route } from "./+types/staff";
import { STAFF_ROLES, type StaffMember, type StaffRole } from "../../../contract/console";
import type { StaffInvitation } from "../../../contract/staff-invitations";
import { ConfirmDialog } from "../../components/console/ConfirmDialog";
import { DataTable, type Column } from "../../components/console/DataTable";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useRouteAction, type ActionFields } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import {
  changeStaffContact,
  changeStaffRole,
  inviteStaff,
  listParams,
  listStaff,
  listStaffInvitations,
  removeStaff,
  resendStaffInvitation,
  revokeStaffInvitation,
  setStaffAlerts,
} from "../../lib/api/console";
import { browserApi } from "../../lib/api/browser";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.staff");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api, me) => {
    const [list, invitations] = await Promise.all([listStaff(api, listParams(args.url)), listStaffInvitations(api)]);
    return { rows: list.data, meta: list.meta, me: me.user_id, invitations: invitations.data };
  });
}

const INTENTS = ["invite", "resend", "revoke", "role", "alerts", "contact", "remove"] as const;

/** The owner's changes to staff and invitations, one intent each; the backend checks the role and audits each. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  const member = Number(textOf(form, "user_id"));
  const invitation = Number(textOf(form, "invitation_id"));
  switch (intent) {
    case "invite":
      return answer(locale, intent, () =>
        inviteStaff(api, {
          email: textOf(form, "email").trim(),
          name: textOf(form, "name").trim(),
          role: textOf(form, "role") as StaffRole,
          lang: textOf(form, "lang") === "ar" ? "ar" : "en",
        }),
      );
    case "resend":
      return answer(locale, intent, () => resendStaffInvitation(api, invitation));
    case "revoke":
      return answer(locale, intent, () => revokeStaffInvitation(api, invitation));
    case "role":
      return answer(locale, intent, () => changeStaffRole(api, member, textOf(form, "role") as StaffRole));
    case "alerts":
      return answer(locale, intent, () =>
        setStaffAlerts(api, member, { orders: form.has("orders"), returns: form.has("returns") }),
      );
    case "contact":
      // Without a phone the member's own address is confirmed; the phone is left as it is.
      return answer(locale, intent, () =>
        changeStaffContact(api, member, textOf(form, "email"), form.has("phone") ? textOf(form, "phone") : undefined),
      );
    case "remove":
      return answer(locale, intent, () => removeStaff(api, member));
    default:
      return unknownIntent(locale);
  }
}

type InviteValues = { email: string; name: string; role: string; lang: string };

/**
 * Staff (owners): invite someone by email (they accept from the emailed link, signed in to a
 * verified account of that email), resend or revoke an invitation, change roles and contact
 * details, choose email alerts, remove; all audited.
 */
export default function ConsoleStaff({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const rules = useMemo(() => formRules(t), [t]);
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  // A role picked in the table: applied only once the owner confirms it (one slip could make an owner).
  const [roleChange, setRoleChange] = useState<{ member: StaffMember; role: StaffRole } | null>(null);
  // The member whose email is being changed, and the address typed for them.
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [newEmail, setNewEmail] = useState("");
  const [newPhone, setNewPhone] = useState("");
  const [revoking, setRevoking] = useState<StaffInvitation | null>(null);
  const f = consoleFormat(locale);
  const blank = { email: "", name: "", role: "support", lang: locale };
  const [form, { Form, Field }] = useForm<InviteValues>({ ...FORM_OPTIONS, initialValues: blank });
  const inviting = useRouteAction(form);
  const { serverErrors, serverMessage } = inviting;

  const invite = (values: InviteValues) =>
    inviting.submit("invite", values, {
      loading: t("console.saving"),
      success: () => t("console.staffInvitations.sent", { email: values.email.trim() }),
      onDone: () => reset(form, { initialValues: blank }),
    });

  // A refused change (an address another account uses, a role not allowed) says why in a toast.
  const steps = useRouteAction();
  const mutate = (intent: (typeof INTENTS)[number], fields: ActionFields, success: string) =>
    void steps.submit(intent, fields, { loading: t("console.saving"), success: () => success, toastRefusal: true });

  const columns: Column<StaffMember>[] = [
    { label: t("console.staff.name"), sort: "name", cell: (r) => <bdi>{r.name}</bdi> },
    {
      label: t("console.fields.email"),
      sort: "email",
      cell: (r) => (
        <span className="console-staff__email">
          <bdi dir="ltr">{r.email}</bdi>{" "}
          {r.email_changed ? (
            <span className="console-badge console-badge--danger">{t("console.staff.emailChanged")}</span>
          ) : null}
          {r.email_changed && r.staff_email ? (
            <span className="console-hint">
              {t("console.staff.addedWith")} <bdi dir="ltr">{r.staff_email}</bdi>
            </span>
          ) : null}
        </span>
      ),
    },
    {
      label: t("console.staff.verified"),
      cell: (r) => (
        <span className={`console-badge console-badge--${r.verified ? "ok" : "warn"}`}>
          {t(r.verified ? "console.staff.verified" : "console.staff.notVerified")}
        </span>
      ),
    },
    {
      label: t("console.fields.role"),
      sort: "role",
      cell: (r) =>
        r.user_id === loaderData.me ? (
          t(`console.roles.${r.role}`)
        ) : (
          <select
            aria-label={t("console.staff.roleOf", { name: r.name })}
            value={r.role}
            onChange={(e) => setRoleChange({ member: r, role: e.target.value as StaffRole })}
          >
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`console.roles.${role}`)}
              </option>
            ))}
          </select>
        ),
    },
    {
      label: t("console.staff.alerts"),
      cell: (r) => (
        <fieldset className="console-staff__alerts">
          <legend className="visually-hidden">{t("console.staff.alertsOf", { name: r.name })}</legend>
          {(["orders", "returns"] as const).map((kind) => {
            const alerts = { orders: r.alert_orders, returns: r.alert_returns };
            return (
              <label key={kind}>
                <input
                  type="checkbox"
                  checked={alerts[kind]}
                  onChange={(e) =>
                    mutate(
                      "alerts",
                      { user_id: r.user_id, ...alerts, [kind]: e.target.checked },
                      t("console.staff.alertsSaved"),
                    )
                  }
                />{" "}
                {t(`console.staff.alert.${kind}`)}
              </label>
            );
          })}
        </fieldset>
      ),
    },
    {
      label: t("console.table.actions"),
      cell: (r) => (
        <span className="console-staff__actions">
          {r.email_changed ? (
            <button
              type="button"
              className="button"
              onClick={() =>
                mutate("contact", { user_id: r.user_id, email: r.email }, t("console.staff.emailConfirmed"))
              }
            >
              {t("console.staff.confirmEmail")}
            </button>
          ) : null}
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setNewEmail(r.email);
              setNewPhone(r.phone ?? "");
              setEditing(r);
            }}
          >
            {t("console.staff.changeContact")}
          </button>
          {r.user_id === loaderData.me ? null : (
            <button type="button" className="button button--danger" onClick={() => setRemoving(r)}>
              {t("console.staff.remove")}
            </button>
          )}
        </span>
      ),
    },
  ];

  const invitationColumns: Column<StaffInvitation>[] = [
    {
      label: t("console.staffInvitations.email"),
      cell: (r) => (
        <span className="console-staff__email">
          <bdi dir="ltr">{r.email}</bdi>
          {r.name ? (
            <span className="console-hint">
              <bdi>{r.name}</bdi>
            </span>
          ) : null}
        </span>
      ),
    },
    { label: t("console.staffInvitations.role"), cell: (r) => t(`console.roles.${r.role}`) },
    {
      label: t("console.staffInvitations.expires"),
      cell: (r) =>
        r.status === "expired" ? (
          <span className="console-badge console-badge--warn">{t("console.staffInvitations.expired")}</span>
        ) : (
          f.moment(r.expires_at)
        ),
    },
    {
      label: t("console.staffInvitations.invitedBy"),
      cell: (r) => (r.invited_by ? <bdi dir="ltr">{r.invited_by}</bdi> : null),
    },
    {
      label: t("console.table.actions"),
      cell: (r) => (
        <span className="console-staff__actions">
          <button
            type="button"
            className="button"
            aria-label={t("console.staffInvitations.resendOf", { email: r.email })}
            onClick={() => mutate("resend", { invitation_id: r.id }, t("console.staffInvitations.resent"))}
          >
            {t("console.staffInvitations.resend")}
          </button>
          <button
            type="button"
            className="button button--danger"
            aria-label={t("console.staffInvitations.revokeOf", { email: r.email })}
            onClick={() => setRevoking(r)}
          >
            {t("console.staffInvitations.revoke")}
          </button>
        </span>
      ),
    },
  ];

  return (
    <>
      <h1>{t("console.nav.staff")}</h1>
      <DataTable
        caption={t("console.nav.staff")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.user_id}
        empty={t("console.table.empty")}
      />
      <p className="console-hint">{t("console.staff.addHint")}</p>
      <section className="console-panel" aria-labelledby="staff-invite">
        <h2 id="staff-invite">{t("console.staffInvitations.title")}</h2>
        <p className="console-hint">{t("console.staffInvitations.hint")}</p>
        <Form
          className="form console-form--inline"
          onSubmit={invite}
          shouldFocus={false}
          aria-labelledby="staff-invite"
        >
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={{
              email: t("console.fields.email"),
              name: t("console.staffInvitations.name"),
              role: t("console.fields.role"),
              lang: t("console.staffInvitations.lang"),
            }}
          />
          <Field name="email" validate={[rules.required(t("console.fields.email")), rules.email()]}>
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                label={t("console.fields.email")}
                type="email"
                dir="ltr"
                autoComplete="off"
                required
              />
            )}
          </Field>
          <Field name="name">
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                label={t("console.staffInvitations.name")}
                autoComplete="off"
              />
            )}
          </Field>
          <Field name="role">
            {(field, props) => (
              <div className="field">
                <label htmlFor="f-role">{t("console.fields.role")}</label>
                <select {...props} id="f-role" value={field.value.value ?? "support"}>
                  {STAFF_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`console.roles.${role}`)}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </Field>
          <Field name="lang">
            {(field, props) => (
              <div className="field">
                <label htmlFor="f-lang">{t("console.staffInvitations.lang")}</label>
                <select {...props} id="f-lang" value={field.value.value ?? locale}>
                  {(["en", "ar"] as const).map((lang) => (
                    <option key={lang} value={lang}>
                      {t(`console.staffInvitations.langs.${lang}`)}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </Field>
          <SubmitButton>{t("console.staffInvitations.send")}</SubmitButton>
        </Form>
      </section>
      <section className="console-panel" aria-labelledby="staff-invitations">
        <h2 id="staff-invitations">{t("console.staffInvitations.pending")}</h2>
        <DataTable
          caption={t("console.staffInvitations.caption")}
          columns={invitationColumns}
          rows={loaderData.invitations}
          rowKey={(r) => r.id}
          empty={t("console.staffInvitations.none")}
        />
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={t("console.staff.removeTitle", { name: removing?.name ?? "" })}
        confirmLabel={t("console.staff.remove")}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const member = removing;
          setRemoving(null);
          if (member) mutate("remove", { user_id: member.user_id }, t("console.staff.removed"));
        }}
      >
        <p>{t("console.staff.removeBody")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t("console.staffInvitations.revokeTitle", { email: revoking?.email ?? "" })}
        confirmLabel={t("console.staffInvitations.revoke")}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const invitation = revoking;
          setRevoking(null);
          if (invitation) mutate("revoke", { invitation_id: invitation.id }, t("console.staffInvitations.revoked"));
        }}
      >
        <p>{t("console.staffInvitations.revokeBody")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={roleChange !== null}
        title={t("console.staff.roleChangeTitle", {
          name: roleChange?.member.name ?? "",
          role: roleChange ? t(`console.roles.${roleChange.role}`) : "",
        })}
        confirmLabel={t("console.staff.roleChangeConfirm")}
        danger={roleChange?.role === "owner"}
        onCancel={() => setRoleChange(null)}
        onConfirm={() => {
          const change = roleChange;
          setRoleChange(null);
          if (change)
            mutate("role", { user_id: change.member.user_id, role: change.role }, t("console.staff.roleChanged"));
        }}
      >
        <p>{roleChange ? t(`console.staff.roleMeans.${roleChange.role}`) : null}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={editing !== null}
        title={t("console.staff.changeContactTitle", { name: editing?.name ?? "" })}
        confirmLabel={t("console.staff.changeContact")}
        danger={false}
        onCancel={() => setEditing(null)}
        onConfirm={() => {
          const member = editing;
          const email = newEmail.trim();
          const phone = newPhone.trim();
          setEditing(null);
          if (member && email)
            mutate("contact", { user_id: member.user_id, email, phone }, t("console.staff.emailSaved"));
        }}
      >
        <p>{t("console.staff.changeContactBody")}</p>
        <div className="field">
          <label htmlFor="staff-new-email">{t("console.fields.email")}</label>
          <input
            id="staff-new-email"
            type="email"
            dir="ltr"
            autoComplete="off"
            value={newEmail}
            onChange={(e) => setNewEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="staff-new-phone">{t("console.staff.phone")}</label>
          <input
            id="staff-new-phone"
            type="tel"
            dir="ltr"
            autoComplete="off"
            placeholder="+9665…"
            value={newPhone}
            onChange={(e) => setNewPhone(e.target.value)}
          />
        </div>
      </ConfirmDialog>
    </>
  );
}
