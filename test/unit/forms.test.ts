import type { FieldStore } from "@modular-forms/react";
import { describe, expect, it, vi } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { ApiError } from "../../app/lib/api/errors";
import {
  fieldErrorsOf,
  formMessages,
  formRules,
  isNameBlockedKey,
  loadValibot,
  nameKeyDown,
  noAutocompleteProps,
  noCopyPasteProps,
  phoneKeyDown,
  visibleError,
} from "../../app/lib/forms";
import { registerMessages, translator } from "../../app/lib/i18n";

registerMessages("en", en);
registerMessages("ar", ar);
const tEn = translator("en");
const tAr = translator("ar");

type Values = { email: string };

/** A field store as modular-forms hands it to a component, with plain values for its signals. */
function field(state: { error: string; touched?: boolean; dirty?: boolean }): FieldStore<Values, "email"> {
  return {
    name: "email",
    value: { value: "" },
    error: { value: state.error },
    active: { value: true },
    touched: { value: state.touched ?? false },
    dirty: { value: state.dirty ?? false },
  } as unknown as FieldStore<Values, "email">;
}

function keyEvent(key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) {
  return { key, ctrlKey: false, metaKey: false, altKey: false, ...mods, preventDefault: vi.fn() };
}

describe("form messages (spec §5)", () => {
  it("the default messages read exactly as the spec writes them", () => {
    const m = formMessages(tEn);
    expect(m.required("Name")).toBe("Name is required.");
    expect(m.email).toBe("Please enter a valid email address.");
    expect(m.url).toBe("Please enter a valid URL.");
    expect(m.number("Quantity")).toBe("Quantity must be a number.");
    expect(m.mismatch("Password confirmation")).toBe("Password confirmation does not match.");
    expect(m.formInvalid).toBe("Sorry, not all fields are filled out correctly.");
    expect(m.summary).toBe("There were errors in your form.");
    expect(m.fallback).toBe("This field is not valid.");
  });

  it("every default message exists in Arabic too", () => {
    const m = formMessages(tAr);
    expect(m.required("الاسم")).toBe("حقل الاسم مطلوب.");
    expect(m.email).toBe("يرجى إدخال بريد إلكتروني صحيح.");
    expect(m.summary).toBe("توجد أخطاء في النموذج.");
    for (const text of [m.url, m.number("الكمية"), m.mismatch("التأكيد"), m.formInvalid, m.fallback])
      expect(text).toMatch(/[\u0600-\u06FF]/);
  });

  it("a rule asked before valibot has loaded answers a promise of its message; once loaded, the message itself", async () => {
    // This file runs outside a browser, where forms.ts does not start loading valibot on idle.
    const rules = formRules(tEn);
    const early = rules.email()("layla@");
    expect(early).toBeInstanceOf(Promise);
    expect(await early).toBe("Please enter a valid email address.");
    await loadValibot();
    expect(rules.email()("layla@")).toBe("Please enter a valid email address.");
  });

  it("the named rules answer their message, or nothing when the value is fine", async () => {
    await loadValibot();
    const rules = formRules(tEn);
    expect(rules.required("Name")("")).toBe("Name is required.");
    expect(rules.required("Name")("   ")).toBe("Name is required.");
    expect(rules.required("Name")("Layla")).toBe("");
    expect(rules.email()("layla@")).toBe("Please enter a valid email address.");
    expect(rules.email()("layla@example.com")).toBe("");
    expect(rules.email()("")).toBe("");
    expect(rules.url()("not a url")).toBe("Please enter a valid URL.");
    expect(rules.url()("https://example.com")).toBe("");
    expect(rules.number("Quantity")("4x")).toBe("Quantity must be a number.");
    expect(rules.number("Quantity")("42")).toBe("");
    expect(rules.matches("Password confirmation", () => "secret-1")("secret-2")).toBe(
      "Password confirmation does not match.",
    );
    expect(rules.matches("Password confirmation", () => "secret-1")("secret-1")).toBe("");
    expect(rules.minLength("Password", 8)("short")).toBe("Password must be at least 8 characters.");
    expect(await rules.phone()("+9665")).toBe(formMessages(tEn).phone);
    expect(await rules.phone()("+966501234567")).toBe("");
    expect(await rules.phone()("")).toBe("");
  });

  it("§5: validation messages become visible after a field is dirty, not when it was only tabbed past; a submit shows them all", () => {
    // Tabbed past (touched by the blur, never changed): validated, but quiet.
    expect(visibleError(field({ error: "Email is required." }))).toBe("");
    expect(visibleError(field({ error: "Email is required.", touched: true }))).toBe("");
    // Changed: dirty, the message shows.
    expect(visibleError(field({ error: "Email is required.", touched: true, dirty: true }))).toBe("Email is required.");
    const submitted = { submitted: { value: true } } as unknown as Parameters<
      typeof visibleError<Values, undefined, "email">
    >[1];
    expect(visibleError(field({ error: "Email is required." }), submitted)).toBe("Email is required.");
    expect(visibleError(field({ error: "", touched: true, dirty: true }))).toBe("");
  });

  it("§5: a field typed in and emptied again stays dirty, so 'required' shows; a reset makes it pristine", () => {
    const store = field({ error: "", touched: true, dirty: true });
    expect(visibleError(store)).toBe("");
    // Back to its start value: modular-forms says not dirty, but the visitor did change it.
    (store.dirty as { value: boolean }).value = false;
    (store.error as { value: string }).value = "Email is required.";
    expect(visibleError(store)).toBe("Email is required.");
    // A reset clears `touched`: the field is pristine again.
    (store.touched as { value: boolean }).value = false;
    expect(visibleError(store)).toBe("");
    (store.touched as { value: boolean }).value = true;
    expect(visibleError(store)).toBe("");
  });
});

describe("422 answers (spec §5)", () => {
  it("each field error has the field name as its type and its messages joined by a comma", () => {
    const error = new ApiError(422, "The given data was invalid.", {
      email: ["Taken.", "Too long."],
      password: ["Too short."],
    });
    expect(fieldErrorsOf(error)).toEqual([
      { type: "email", message: "Taken., Too long." },
      { type: "password", message: "Too short." },
    ]);
  });

  it("the common handler's answer carries the same list; other failures carry none", () => {
    const list = [{ type: "code", message: "The code is invalid or has expired." }];
    expect(fieldErrorsOf({ status: 422, message: "x", errors: list })).toEqual(list);
    expect(fieldErrorsOf(new ApiError(500, "boom"))).toEqual([]);
    expect(fieldErrorsOf(new Error("no"))).toEqual([]);
  });
});

describe("input helpers (spec §5)", () => {
  it("§5: a phone-style field blocks every key except digits, Backspace, Delete and plus (Tab still leaves it)", () => {
    // Shift on its own is how many keyboards type the plus; "Unidentified" is a phone keyboard's every key.
    for (const key of ["0", "7", "٣", "+", "Backspace", "Delete", "Tab", "Shift", "Unidentified"]) {
      const e = keyEvent(key);
      phoneKeyDown(e as never);
      expect(e.preventDefault, key).not.toHaveBeenCalled();
    }
    for (const key of [
      "a",
      "Z",
      "-",
      " ",
      ".",
      "Enter",
      "Escape",
      "ArrowLeft",
      "ArrowRight",
      "Home",
      "End",
      "Control",
    ]) {
      const e = keyEvent(key);
      phoneKeyDown(e as never);
      expect(e.preventDefault, key).toHaveBeenCalled();
    }
    // Shortcuts are keys too; Backspace with a modifier is still Backspace.
    for (const [key, mods] of [
      ["v", { ctrlKey: true }],
      ["a", { metaKey: true }],
      ["Tab", { ctrlKey: true }],
    ] as const) {
      const e = keyEvent(key, mods);
      phoneKeyDown(e as never);
      expect(e.preventDefault, `${key} with a modifier`).toHaveBeenCalled();
    }
    const wordDelete = keyEvent("Backspace", { ctrlKey: true });
    phoneKeyDown(wordDelete as never);
    expect(wordDelete.preventDefault).not.toHaveBeenCalled();
  });

  it("a name-style field blocks digit keys, Latin and Arabic-Indic", () => {
    expect(isNameBlockedKey("4")).toBe(true);
    expect(isNameBlockedKey("٤")).toBe(true);
    expect(isNameBlockedKey("ل")).toBe(false);
    expect(isNameBlockedKey("Backspace")).toBe(false);
    const e = keyEvent("5");
    nameKeyDown(e as never);
    expect(e.preventDefault).toHaveBeenCalled();
  });

  it("autocomplete can be switched off, and copy, cut, paste and drop refused", () => {
    expect(noAutocompleteProps.autoComplete).toBe("off");
    for (const handler of [
      noCopyPasteProps.onCopy,
      noCopyPasteProps.onCut,
      noCopyPasteProps.onPaste,
      noCopyPasteProps.onDrop,
    ]) {
      const e = { preventDefault: vi.fn() };
      handler(e as never);
      expect(e.preventDefault).toHaveBeenCalled();
    }
  });
});
