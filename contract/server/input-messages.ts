import type { InputField, InputMessages } from "../inputs";
import type { Locale } from "../locale";
import { boundText, type NumberProblem, type NumberRules } from "../numbers";
import { CONSOLE_FIELD_NAMES } from "./console-fields";
import { say, type Bilingual } from "./i18n";

/**
 * The edge's wording of the contract's input rules (contract/inputs.ts), in both languages: what
 * the reference backend and the own server answer in a 422, field by field.
 */

/** How a field is named in a message, capitalised for the start of a sentence. */
const FIELD_NAMES: Record<InputField, Bilingual> = {
  label: { en: "Label", ar: "الوصف" },
  buyer_company: { en: "Company name", ar: "اسم المنشأة" },
  buyer_vat_number: { en: "Company VAT number", ar: "الرقم الضريبي للمنشأة" },
  name: { en: "Name", ar: "الاسم" },
  email: { en: "Email", ar: "البريد الإلكتروني" },
  phone: { en: "Phone", ar: "رقم الجوال" },
  city: { en: "City", ar: "المدينة" },
  district: { en: "District", ar: "الحي" },
  street: { en: "Street", ar: "الشارع" },
  building: { en: "Building number", ar: "رقم المبنى" },
  postal_code: { en: "Postal code", ar: "الرمز البريدي" },
  additional_number: { en: "Additional number", ar: "الرقم الإضافي" },
  short_address: { en: "Short address", ar: "العنوان المختصر" },
  notes: { en: "Notes", ar: "الملاحظات" },
  is_default: { en: "Default", ar: "العنوان الافتراضي" },
  code: { en: "Promo code", ar: "رمز الخصم" },
  subject: { en: "Subject", ar: "الموضوع" },
  message: { en: "Message", ar: "الرسالة" },
  product_id: { en: "Product", ar: "المنتج" },
  variant_id: { en: "Choice", ar: "الخيار" },
  quantity: { en: "Quantity", ar: "الكمية" },
  address_id: { en: "Address", ar: "العنوان" },
  idempotency_key: { en: "Idempotency key", ar: "مفتاح الطلب" },
  shipping_method: { en: "Shipping method", ar: "طريقة الشحن" },
  payment_method: { en: "Payment method", ar: "طريقة الدفع" },
  mobile: { en: "STC Pay mobile number", ar: "رقم جوال STC Pay" },
  otp: { en: "Code", ar: "الرمز" },
  iban: { en: "IBAN", ar: "رقم الآيبان" },
  iban_name: { en: "Account holder's name", ar: "اسم صاحب الحساب" },
  group: { en: "Category", ar: "الفئة" },
  slugs: { en: "Products", ar: "المنتجات" },
  product: { en: "Product", ar: "المنتج" },
  question: { en: "Your question", ar: "سؤالك" },
  answer: { en: "The answer", ar: "الإجابة" },
  channel: { en: "How to tell you", ar: "طريقة التنبيه" },
  rating: { en: "Rating", ar: "التقييم" },
  title: { en: "Title", ar: "العنوان" },
  body: { en: "Review", ar: "المراجعة" },
  review_lang: { en: "Language", ar: "اللغة" },
  author_name: { en: "Name shown", ar: "الاسم الظاهر" },
  photos: { en: "Photos", ar: "الصور" },
  thumbs: { en: "Thumbnails", ar: "الصور المصغرة" },
  keep_photos: { en: "Photos to keep", ar: "الصور المحتفظ بها" },
  report_reason: { en: "Reason", ar: "السبب" },
  reply: { en: "Reply", ar: "الرد" },
  topic: { en: "Kind of message", ar: "نوع الرسائل" },
  token: { en: "Link", ar: "الرابط" },
  lines: { en: "Cart lines", ar: "بنود السلة" },
  purpose: { en: "Kind of consent", ar: "نوع الموافقة" },
  granted: { en: "Your answer", ar: "إجابتك" },
  password: { en: "Password", ar: "كلمة المرور" },
  consent: { en: "Cart reminder", ar: "تذكير السلة" },
  ...CONSOLE_FIELD_NAMES,
};

const TEMPLATES = {
  required: { en: "{name} is required.", ar: "{name} مطلوب." },
  // In Arabic the noun after a number takes the number's form (3 أحرف, 11 حرفًا, 100 حرف): these name none.
  minLength: { en: "{name} must be at least {min} characters.", ar: "طول {name} أقل من الحد الأدنى ({min})." },
  maxLength: { en: "{name} may not be longer than {max} characters.", ar: "تجاوز طول {name} الحد الأقصى ({max})." },
  invalid: { en: "{name} is not valid.", ar: "{name} غير صالح." },
} satisfies Record<string, Bilingual>;

/** Wrong-form messages that say what is expected rather than only that it is wrong. */
const INVALID: Partial<Record<InputField, Bilingual>> = {
  rating: { en: "Choose from 1 to 5 stars.", ar: "اختر من نجمة واحدة إلى خمس نجوم." },
  report_reason: { en: "Choose why you are reporting this review.", ar: "اختر سبب الإبلاغ عن هذه المراجعة." },
  buyer_vat_number: {
    en: "Enter the company's VAT number: 15 digits, starting and ending with 3.",
    ar: "أدخل الرقم الضريبي للمنشأة: 15 رقمًا يبدأ وينتهي بالرقم 3.",
  },
  crn: { en: "Enter the commercial registration number: 10 digits.", ar: "أدخل رقم السجل التجاري: 10 أرقام." },
  building_number: { en: "Enter the building number: 4 digits.", ar: "أدخل رقم المبنى: 4 أرقام." },
  iban: {
    en: "Enter a Saudi IBAN: SA followed by 22 digits, as your bank shows it (the check digits do not match).",
    ar: "أدخل رقم آيبان سعوديًا: SA يليها 22 رقمًا كما يظهر في حسابك البنكي (أرقام التحقق لا تطابق).",
  },
  barcode: {
    en: "Enter the 8, 12, 13 or 14 digits under the barcode (EAN or UPC); the last one is a check digit that does not match.",
    ar: "أدخل الأرقام الـ8 أو 12 أو 13 أو 14 تحت الباركود (EAN أو UPC)؛ الرقم الأخير رقم تحقق لا يطابق بقية الأرقام.",
  },
  weight_grams: {
    en: "Enter the weight in whole grams (1.5 kg is 1500).",
    ar: "أدخل الوزن بالغرامات عددًا صحيحًا (1.5 كغ تساوي 1500).",
  },
  percent: {
    en: "Enter a percentage from −99 to 1000, other than 0 (at most two decimals).",
    ar: "أدخل نسبة مئوية من −99 إلى 1000 غير الصفر (بمنزلتين عشريتين على الأكثر).",
  },
  email: { en: "Please enter a valid email address.", ar: "يرجى إدخال بريد إلكتروني صالح." },
  phone: { en: "Please enter a valid phone number.", ar: "يرجى إدخال رقم جوال صالح." },
  channel: { en: "Choose email or SMS.", ar: "اختر البريد الإلكتروني أو الرسائل النصية." },
  building: {
    en: "The building number is the 4 digits on the building's national address plate.",
    ar: "رقم المبنى هو الأرقام الأربعة على لوحة العنوان الوطني للمبنى.",
  },
  postal_code: {
    en: "The postal code is 5 digits, like 12345.",
    ar: "الرمز البريدي 5 أرقام، مثل 12345.",
  },
  additional_number: {
    en: "The additional number is 4 digits, like 6789.",
    ar: "الرقم الإضافي 4 أرقام، مثل 6789.",
  },
  short_address: {
    en: "The short address is 4 letters and then the building's 4-digit number, like RRRD2929.",
    ar: "العنوان المختصر 4 أحرف لاتينية يليها رقم المبنى المكون من 4 أرقام، مثل RRRD2929.",
  },
  compare_at_price: {
    en: "The compare-at price must be above the price.",
    ar: "يجب أن يكون السعر قبل الخصم أعلى من السعر.",
  },
  quantity: {
    en: "The quantity must be a whole number from 1 to 999.",
    ar: "يجب أن تكون الكمية عددًا صحيحًا من 1 إلى 999.",
  },
};

/**
 * Why a typed number was refused (contract/numbers.ts), for an amount in riyals or a count; the
 * same words as the console's forms (locales, "numbers").
 */
const NUMBER: Record<Exclude<NumberProblem, "empty">, { money: Bilingual; count: Bilingual }> = {
  format: {
    money: { en: "{name}: type an amount in riyals, e.g. 299.50.", ar: "{name}: اكتب مبلغًا بالريال، مثل 299.50." },
    count: { en: "{name}: type a whole number, e.g. 20.", ar: "{name}: اكتب عددًا صحيحًا، مثل 20." },
  },
  grouping: {
    money: {
      en: "{name}: a comma only separates thousands (1,299.50); use a point for the decimals.",
      ar: "{name}: الفاصلة تفصل الآلاف فقط (1,299.50)؛ اكتب الكسور بعد نقطة أو «٫».",
    },
    count: {
      en: "{name}: a comma only separates thousands (1,200).",
      ar: "{name}: الفاصلة تفصل الآلاف فقط (1,200).",
    },
  },
  decimals: {
    money: { en: "{name}: up to 2 decimals (halalas).", ar: "{name}: منزلتان عشريتان على الأكثر (الهللات)." },
    count: { en: "{name} must be a whole number, without decimals.", ar: "يجب أن يكون {name} عددًا صحيحًا بلا كسور." },
  },
  negative: {
    money: { en: "{name} cannot be negative.", ar: "لا يمكن أن يكون {name} سالبًا." },
    count: { en: "{name} cannot be negative.", ar: "لا يمكن أن يكون {name} سالبًا." },
  },
  range: {
    money: { en: "{name} must be from {min} to {max} SAR.", ar: "يجب أن يكون {name} من {min} إلى {max} ريال." },
    count: { en: "{name} must be from {min} to {max}.", ar: "يجب أن يكون {name} من {min} إلى {max}." },
  },
};

function numberSay(lang: Locale, name: string, problem: Exclude<NumberProblem, "empty">, rules: NumberRules): string {
  const wording = NUMBER[problem][rules.decimals > 0 ? "money" : "count"];
  return say(lang, wording, {
    name,
    min: boundText(rules.min ?? 0, rules),
    max: boundText(rules.max ?? 0, rules),
  });
}

/** The envelope's message of every 422 for a bad input. */
export const INVALID_INPUT: Bilingual = { en: "The given data was invalid.", ar: "البيانات المدخلة غير صالحة." };

const cache = new Map<Locale, InputMessages>();

export function inputMessages(lang: Locale): InputMessages {
  let messages = cache.get(lang);
  if (!messages) {
    const name = (field: InputField) => FIELD_NAMES[field][lang];
    messages = {
      required: (field) => say(lang, TEMPLATES.required, { name: name(field) }),
      minLength: (field, min) => say(lang, TEMPLATES.minLength, { name: name(field), min }),
      maxLength: (field, max) => say(lang, TEMPLATES.maxLength, { name: name(field), max }),
      invalid: (field) => say(lang, INVALID[field] ?? TEMPLATES.invalid, { name: name(field) }),
      number: (field, problem, rules) => numberSay(lang, name(field), problem, rules),
    };
    cache.set(lang, messages);
  }
  return messages;
}
