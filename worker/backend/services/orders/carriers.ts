/**
 * Tracking links of the carriers a Saudi shop ships with (the "shipped" message links
 * to the parcel). The console takes the carrier as free text, so it is matched loosely; an
 * unknown carrier gets no link here and the message points to the shop's own tracking page.
 */
const CARRIERS: { match: RegExp; url: (tracking: string) => string }[] = [
  { match: /aramex|أرامكس/i, url: (t) => `https://www.aramex.com/sa/en/track/results?ShipmentNumber=${t}` },
  { match: /smsa|سمسا/i, url: (t) => `https://www.smsaexpress.com/sa/en/trackingdetails?tracknumbers=${t}` },
  {
    match: /\bspl\b|saudi post|البريد السعودي|سبل/i,
    url: (t) => `https://splonline.com.sa/en/shipmentdetailsstatic/?tid=${t}`,
  },
  { match: /naqel|ناقل/i, url: (t) => `https://www.naqelexpress.com/en/tracking/?waybills=${t}` },
  { match: /\bdhl\b|دي إتش إل/i, url: (t) => `https://www.dhl.com/sa-en/home/tracking.html?tracking-id=${t}` },
  { match: /fedex|فيديكس/i, url: (t) => `https://www.fedex.com/fedextrack/?trknbr=${t}` },
  { match: /\bups\b/i, url: (t) => `https://www.ups.com/track?tracknum=${t}` },
];

/** The carrier's tracking page for a parcel, or null for a carrier it does not know. */
export function trackingUrl(carrier: string | null, tracking: string | null): string | null {
  if (!carrier || !tracking) return null;
  const known = CARRIERS.find((c) => c.match.test(carrier));
  return known ? known.url(encodeURIComponent(tracking.replace(/\s+/g, ""))) : null;
}
