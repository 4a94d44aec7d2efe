// The bounds of every free-text input a shopper sends, in characters: part of the contract
// (contract/inputs.ts builds its schemas from them). No dependencies, so a form can show a
// limit without loading valibot.

export const LIMITS = {
  label: 40,
  name: 100,
  email: 254,
  city: 80,
  district: 80,
  street: 200,
  notes: 500,
  passwordMin: 8,
  passwordMax: 128,
  promoCode: 40,
  quantity: 999,
  /** Lines in one offline cart sync: a cart's worth, far above what a shopper changes offline. */
  cartSyncLines: 50,
  contactNameMin: 2,
  subjectMin: 2,
  subject: 150,
  messageMin: 10,
  message: 5000,
} as const;
