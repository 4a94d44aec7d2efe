import { setValue, useForm, type FieldElementProps, type FieldStore, type FormStore } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import {
  REVIEW_AUTHOR_MAX,
  REVIEW_BODY_MAX,
  REVIEW_PHOTOS_MAX,
  REVIEW_TITLE_MAX,
  type OwnReview,
  type ReviewPhoto,
} from "../../../contract/reviews";
import { browserApi } from "../../lib/api/browser";
import type { FieldError } from "../../lib/api/errors";
import { writeReview } from "../../lib/api/reviews";
import { useBackendBase } from "../../lib/console-files";
import { FORM_OPTIONS, formRules, visibleError } from "../../lib/forms";
import { useLocale, useT } from "../../lib/use-locale";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { fieldId, TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { preparePhoto, type PreparedPhoto } from "./photo-resize";

/**
 * The form for one product's review: stars (a radio group), title, text, the name to show and up
 * to four photos, resized in the browser before they are sent (photo-resize.ts). Editing prefills
 * the shopper's review, whose photos can each be kept or removed. A 422 lands on the fields and the
 * summary as every form of the shop shows it.
 */

type ReviewValues = { rating: string; title: string; body: string; author_name: string };

/** An existing photo of the review being edited, and whether the shopper keeps it. */
interface KeptPhoto {
  photo: ReviewPhoto;
  /** Its position on the review, from 0. */
  index: number;
  keep: boolean;
}

/** The 422's photo errors (`photos`, `photos.0`, `thumbs`...), shown under the photo picker. */
const isPhotoError = (e: FieldError) => /^(photos|thumbs)(\.|$)/.test(e.type);

export function ReviewForm({
  product,
  own,
  defaultName,
  idPrefix,
  onDone,
}: {
  product: { slug: string; name: string };
  own: OwnReview | null;
  defaultName: string;
  idPrefix: string;
  onDone: (review: OwnReview) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const base = useBackendBase();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<ReviewValues>({
    ...FORM_OPTIONS,
    initialValues: {
      rating: own ? String(own.rating) : "",
      title: own?.title ?? "",
      body: own?.body ?? "",
      author_name: own?.author_name ?? defaultName,
    },
  });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const [kept, setKept] = useState<KeptPhoto[]>(() =>
    (own?.photos ?? []).map((photo, index) => ({ photo, index, keep: true })),
  );
  const [added, setAdded] = useState<PreparedPhoto[]>([]);
  const [preparing, setPreparing] = useState(false);
  const [photoError, setPhotoError] = useState("");
  const labels = {
    rating: t("reviews.form.rating"),
    title: t("reviews.form.title"),
    body: t("reviews.form.body"),
    author_name: t("reviews.form.name"),
    photos: t("reviews.form.photos"),
  };

  // The previews' object URLs go with the form.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const room = REVIEW_PHOTOS_MAX - kept.filter((k) => k.keep).length - added.length;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = "";
    if (!files.length) return;
    setPhotoError("");
    const taken = files.slice(0, Math.max(0, room));
    if (files.length > taken.length) setPhotoError(t("reviews.form.photosMax", { max: REVIEW_PHOTOS_MAX }));
    setPreparing(true);
    const ready: PreparedPhoto[] = [];
    for (const [i, file] of taken.entries()) {
      try {
        const photo = await preparePhoto(file, added.length + i);
        previews.current.add(photo.preview);
        ready.push(photo);
      } catch {
        setPhotoError(t("reviews.form.photoUnreadable", { name: file.name }));
      }
    }
    setAdded((list) => [...list, ...ready]);
    setPreparing(false);
  };

  const removeAdded = (photo: PreparedPhoto) => {
    URL.revokeObjectURL(photo.preview);
    previews.current.delete(photo.preview);
    setAdded((list) => list.filter((p) => p !== photo));
  };

  const submit = async (values: ReviewValues) => {
    const saved = await run(t("reviews.form.sending"), async () => {
      const res = await writeReview(browserApi(locale), base, {
        product: product.slug,
        rating: Number(values.rating),
        title: values.title.trim(),
        body: values.body.trim(),
        author_name: values.author_name.trim(),
        photos: added.map((p) => ({ display: p.display, thumb: p.thumb, name: p.name })),
        // An edit names the photos it keeps; the new ones follow them.
        ...(own ? { keep_photos: kept.filter((k) => k.keep).map((k) => k.photo.key) } : {}),
      });
      return res.data;
    });
    if (saved) onDone(saved);
  };

  const photoErrors = serverErrors.filter(isPhotoError);
  const photosId = fieldId("photos", idPrefix);

  return (
    <Form
      className="form review-form"
      onSubmit={submit}
      shouldFocus={false}
      aria-label={t("reviews.form.label", { name: product.name })}
    >
      <FormErrors
        form={form}
        messages={rules.messages}
        serverErrors={serverErrors}
        serverMessage={serverMessage}
        labels={labels}
        idPrefix={idPrefix}
      />
      <Field name="rating" validate={[(v) => (v ? "" : t("reviews.form.ratingRequired"))]}>
        {(field, props) => (
          <StarPicker form={form} field={field} props={props} idPrefix={idPrefix} label={labels.rating} />
        )}
      </Field>
      <Field name="title" validate={[rules.required(labels.title), rules.maxLength(labels.title, REVIEW_TITLE_MAX)]}>
        {(field, props) => (
          <TextField
            form={form}
            field={field}
            props={props}
            label={labels.title}
            idPrefix={idPrefix}
            dir="auto"
            maxLength={REVIEW_TITLE_MAX}
            required
          />
        )}
      </Field>
      <Field name="body" validate={[rules.required(labels.body), rules.maxLength(labels.body, REVIEW_BODY_MAX)]}>
        {(field, props) => (
          <TextField
            form={form}
            field={field}
            props={props}
            label={labels.body}
            idPrefix={idPrefix}
            hint={t("reviews.form.bodyHint")}
            dir="auto"
            multiline
            rows={6}
            required
          />
        )}
      </Field>
      <Field name="author_name" validate={[rules.maxLength(labels.author_name, REVIEW_AUTHOR_MAX)]}>
        {(field, props) => (
          <TextField
            form={form}
            field={field}
            props={props}
            label={labels.author_name}
            idPrefix={idPrefix}
            hint={t("reviews.form.nameHint")}
            dir="auto"
            autoComplete="nickname"
          />
        )}
      </Field>
      <div className="field photo-picker" data-invalid={photoErrors.length || photoError ? "true" : undefined}>
        <label htmlFor={photosId}>{labels.photos}</label>
        <p id={`${photosId}-hint`} className="field__hint">
          {t("reviews.form.photosHint", { max: REVIEW_PHOTOS_MAX })}
        </p>
        {kept.length || added.length ? (
          <ul className="photo-picker__list" aria-label={t("reviews.form.chosenPhotos")}>
            {kept.map((k) => (
              <li key={k.photo.url} className={`photo-picker__item${k.keep ? "" : " is-removed"}`}>
                <img src={k.photo.thumb} alt={t("reviews.form.photoN", { n: k.index + 1 })} width={96} height={96} />
                <button
                  type="button"
                  className="button button--ghost"
                  aria-pressed={!k.keep}
                  onClick={() => setKept((list) => list.map((x) => (x === k ? { ...x, keep: !x.keep } : x)))}
                >
                  {k.keep
                    ? t("reviews.form.removePhoto", { n: k.index + 1 })
                    : t("reviews.form.keepPhoto", { n: k.index + 1 })}
                </button>
              </li>
            ))}
            {added.map((p, i) => (
              <li key={p.preview} className="photo-picker__item">
                <img src={p.preview} alt={t("reviews.form.newPhotoN", { n: i + 1 })} width={96} height={96} />
                <button type="button" className="button button--ghost" onClick={() => removeAdded(p)}>
                  {t("reviews.form.removeNewPhoto", { n: i + 1 })}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="field__control">
          <input
            id={photosId}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            multiple
            disabled={room <= 0 || preparing}
            aria-describedby={[`${photosId}-hint`, photoErrors.length || photoError ? `${photosId}-error` : ""]
              .filter(Boolean)
              .join(" ")}
            aria-invalid={photoErrors.length || photoError ? true : undefined}
            onChange={choose}
          />
        </div>
        {preparing ? (
          <p className="muted" role="status">
            {t("reviews.form.preparing")}
          </p>
        ) : null}
        {photoErrors.length || photoError ? (
          <p id={`${photosId}-error`} className="field__error">
            {[photoError, ...photoErrors.map((e) => e.message)].filter(Boolean).join(" ")}
          </p>
        ) : null}
      </div>
      <SubmitButton disabled={preparing}>{own ? t("reviews.form.update") : t("reviews.form.submit")}</SubmitButton>
    </Form>
  );
}

/** The stars as a radio group: arrow keys move between them, each says how many stars it gives. */
function StarPicker({
  form,
  field,
  props,
  idPrefix,
  label,
}: {
  form: FormStore<ReviewValues, undefined>;
  field: FieldStore<ReviewValues, "rating">;
  props: FieldElementProps<ReviewValues, "rating">;
  idPrefix: string;
  label: string;
}) {
  useSignals();
  const t = useT();
  const name = useId();
  const value = Number(field.value.value ?? "") || 0;
  const error = visibleError(field, form);
  const errorId = `${fieldId("rating", idPrefix)}-error`;
  return (
    <fieldset
      className="field star-picker"
      data-invalid={error ? "true" : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>
        {label}
        <span className="field__required" aria-hidden="true">
          {" "}
          *
        </span>
      </legend>
      <div className="star-picker__options">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={`star-picker__option${n <= value ? " is-on" : ""}`}>
            <input
              id={n === 1 ? fieldId("rating", idPrefix) : undefined}
              ref={n === 1 ? props.ref : undefined}
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              required={n === 1}
              onChange={() => setValue(form, "rating", String(n))}
              onBlur={props.onBlur}
            />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{t("reviews.form.starsN", { stars: n })}</span>
          </label>
        ))}
      </div>
      <p className="star-picker__value" aria-hidden="true">
        {value ? t(`reviews.form.starWords.${value}`) : t("reviews.form.pickStars")}
      </p>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
