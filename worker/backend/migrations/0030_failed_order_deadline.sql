-- An order whose payment failed (declined, or cancelled on the card page) now keeps its deadline to
-- pay in reserved_until, so the expired-holds sweep closes it like any unpaid order once that passes
-- (services/orders.ts, releaseExpiredReservations). Orders that failed before this kept none and
-- were never closed: they get the latest deadline any RESERVATION_MINUTES allows (a day after they
-- were placed), so none is closed while it could still be paid. Nothing else changes.
UPDATE orders SET reserved_until = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1440 minutes')
WHERE status = 'payment_failed' AND reserved_until IS NULL;
