import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";
import {
  call,
  checkoutWith,
  createProduct,
  freshIp,
  newGuest,
  newUser,
  type Shopper,
  type TestProduct,
} from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { paidOrder, payOrder } from "../support/orders";

/**
 * Questions and answers on product pages: a signed-in shopper asks, staff publish or answer in
 * the console, buyers answer when the store allows it, and the asker hears of each published
 * answer once, in the language they asked in.
 */

const listOf = (slug: string, page = 1) => call(null, "GET", `/catalogue/products/${slug}/questions?page=${page}`);

async function ask(shopper: Shopper, product: TestProduct, text = "Does it support fast charging at 65 W?") {
  const asked = await call(shopper, "POST", "/client/questions", { product: product.slug, text });
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  return asked.body.data.id as number;
}

const auditOf = async (entity: "question" | "answer", id: number) =>
  (
    await env.DB.prepare(
      "SELECT action, staff_email, after_json FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id",
    )
      .bind(entity, String(id))
      .all<{ action: string; staff_email: string; after_json: string | null }>()
  ).results;

interface MessageRow {
  key: string;
  topic: string;
  channel: string;
  recipient: string;
  lang: string;
  params: string;
}

/** The shopper messages the outbox holds for a recipient, oldest first. */
const messagesTo = async (recipient: string) =>
  (
    await env.DB.prepare(
      "SELECT key, topic, channel, recipient, lang, params FROM shopper_messages WHERE recipient = ? ORDER BY id",
    )
      .bind(recipient)
      .all<MessageRow>()
  ).results;

/** What the development outbox delivered to a recipient (the queue's consumer rendered and sent it). */
const deliveredTo = (to: string) =>
  expect.poll(
    async () =>
      (
        await env.DB.prepare("SELECT subject, body, channel, lang FROM dev_outbox WHERE recipient = ? ORDER BY id")
          .bind(to)
          .all<{ subject: string | null; body: string; channel: string; lang: string }>()
      ).results,
    { timeout: 10_000, interval: 100 },
  );

async function deliver(manager: Staff, number: string) {
  for (const [path, body] of [
    ["process", undefined],
    ["ship", { carrier: "SMSA", tracking_number: "SM123456" }],
    ["deliver", undefined],
  ] as const)
    expect((await call(manager, "POST", `/admin/orders/${number}/${path}`, body)).status).toBe(200);
}

const allowBuyers = async (owner: Staff, on: boolean) =>
  expect((await call(owner, "PUT", "/admin/settings/questions", { buyers_answer: on })).status).toBe(200);

describe("asking a question", () => {
  it("needs a signed-in shopper: a visitor or a guest is refused with 401", async () => {
    const product = await createProduct();
    const body = { product: product.slug, text: "Does it come with a charger?" };
    expect((await call(null, "POST", "/client/questions", body)).status).toBe(401);
    expect((await call(await newGuest(), "POST", "/client/questions", body)).status).toBe(401);
    expect((await listOf(product.slug)).body.data.data).toEqual([]);
  });

  it("refuses a bad question with field errors in the shopper's language, and writes nothing", async () => {
    const [shopper, arabic] = await Promise.all([newUser(), newUser("ar")]);
    const product = await createProduct();
    const short = await call(shopper, "POST", "/client/questions", { product: product.slug, text: "  Fast?  " });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ text: ["Your question must be at least 10 characters."] });
    const long = await call(arabic, "POST", "/client/questions", { product: product.slug, text: "ا".repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.errors!.text).toEqual(["تجاوز طول سؤالك الحد الأقصى (1000)."]);
    const none = await call(shopper, "POST", "/client/questions", {});
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors!).sort()).toEqual(["product", "text"]);
    const unknown = await call(shopper, "POST", "/client/questions", {
      product: "no-such-product",
      text: "Is this one any good?",
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ product: ["Product is not valid."] });
    const written = await env.DB.prepare("SELECT COUNT(*) AS n FROM questions WHERE product_id = ?")
      .bind(product.id)
      .first<{ n: number }>();
    expect(written!.n).toBe(0);
  });

  it("a new question is pending: thanked, not public, and flagged for the moderator when it holds contact details", async () => {
    const shopper = await newUser();
    const product = await createProduct();
    const asked = await call(shopper, "POST", "/client/questions", {
      product: product.slug,
      text: "Cheaper at www.other-shop.com? Call me on 0551234567",
    });
    expect(asked.status).toBe(201);
    expect(asked.body.data.status).toBe("pending");
    expect(asked.body.message).toBe("Thanks: your question will appear once it is answered or approved.");
    expect((await listOf(product.slug)).body.data).toMatchObject({ data: [], meta: { total: 0 } });
    const row = await env.DB.prepare("SELECT status, lang, asker_lang, flags FROM questions WHERE id = ?")
      .bind(asked.body.data.id)
      .first();
    expect(row).toEqual({ status: "pending", lang: "en", asker_lang: "en", flags: '["link","phone"]' });
  });

  it("keeps the text exactly as written: a script is stored and served as text", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const product = await createProduct();
    const text = `<script>alert("q")</script> & <b>does</b> it fit a 15" bag?`;
    const id = await ask(shopper, product, `  ${text}  `);
    const stored = await env.DB.prepare("SELECT text FROM questions WHERE id = ?").bind(id).first<{ text: string }>();
    expect(stored!.text).toBe(text);
    expect((await call(manager, "POST", `/admin/questions/${id}/approve`)).status).toBe(200);
    expect((await listOf(product.slug)).body.data.data[0].text).toBe(text);
  });

  it("an unknown product's list is a 404; a page is 10 questions, newest first", async () => {
    expect((await listOf("no-such-product")).status).toBe(404);
    const [manager, ...shoppers] = await Promise.all([newStaff("manager"), newUser(), newUser(), newUser()]);
    const product = await createProduct();
    const ids: number[] = [];
    // Four each at most: an account asks five a minute.
    for (let i = 0; i < 11; i++) ids.push(await ask(shoppers[i % 3]!, product, `Question number ${i} about it?`));
    for (const id of ids) expect((await call(manager, "POST", `/admin/questions/${id}/approve`)).status).toBe(200);
    const first = (await listOf(product.slug)).body.data;
    expect(first.meta).toEqual({ page: 1, per_page: 10, total: 11, last_page: 2 });
    expect(first.data.map((q: { id: number }) => q.id)).toEqual(ids.slice(1).reverse());
    expect((await listOf(product.slug, 2)).body.data.data.map((q: { id: number }) => q.id)).toEqual([ids[0]]);
  });

  it("an account may keep ten questions waiting for moderation, not more", async () => {
    const shopper = await newUser("ar");
    const product = await createProduct();
    await env.DB.batch(
      Array.from({ length: 10 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO questions (product_id, user_id, text, lang, asker_lang) VALUES (?, ?, ?, 'en', 'en')",
        ).bind(product.id, shopper.userId, `Waiting question ${i}?`),
      ),
    );
    const more = await call(shopper, "POST", "/client/questions", {
      product: product.slug,
      text: "One question more?",
    });
    expect(more.status).toBe(429);
    expect(more.body.message).toBe(
      "لديك 10 أسئلة بانتظار مراجعة المتجر. يمكنك طرح المزيد بعد الإجابة عنها أو اعتمادها.",
    );
  });
});

describe("moderation in the console", () => {
  it("approving publishes a pending question; the step is audited", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const product = await createProduct();
    const id = await ask(shopper, product);
    const queue = await call(manager, "GET", "/admin/questions?tab=pending");
    expect(queue.status).toBe(200);
    expect(queue.body.data.data.map((q: { id: number }) => q.id)).toContain(id);
    expect(queue.body.data.counts.pending).toBeGreaterThan(0);

    const approved = await call(manager, "POST", `/admin/questions/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id, status: "published", moderated_by: manager.email });
    expect((await listOf(product.slug)).body.data.data).toEqual([
      expect.objectContaining({ id, text: "Does it support fast charging at 65 W?", lang: "en", answers: [] }),
    ]);
    expect(await auditOf("question", id)).toEqual([
      { action: "question.approve", staff_email: manager.email, after_json: '{"status":"published"}' },
    ]);
    // Approving twice is refused and writes no second line.
    expect((await call(manager, "POST", `/admin/questions/${id}/approve`)).status).toBe(409);
    expect(await auditOf("question", id)).toHaveLength(1);
  });

  it("rejecting needs a reason and keeps the question off the page; removing takes a published one down", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const product = await createProduct();
    const [rejected, removed] = [await ask(shopper, product), await ask(shopper, product, "Is the box sealed?")];
    const noReason = await call(manager, "POST", `/admin/questions/${rejected}/reject`, { reason: "  " });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors).toEqual({ reason: ["Reason is required."] });
    const refused = await call(manager, "POST", `/admin/questions/${rejected}/reject`, {
      reason: "Not about the product",
    });
    expect(refused.body.data).toMatchObject({ status: "rejected", reject_reason: "Not about the product" });

    expect((await call(manager, "POST", `/admin/questions/${removed}/approve`)).status).toBe(200);
    expect((await listOf(product.slug)).body.data.data.map((q: { id: number }) => q.id)).toEqual([removed]);
    // Remove is for what is published, reject for what waits.
    expect((await call(manager, "POST", `/admin/questions/${removed}/reject`, { reason: "x" })).status).toBe(409);
    const gone = await call(manager, "POST", `/admin/questions/${removed}/remove`, { reason: "Spam" });
    expect(gone.status).toBe(200);
    expect((await listOf(product.slug)).body.data.data).toEqual([]);

    const tab = await call(manager, "GET", "/admin/questions?tab=rejected");
    expect(tab.body.data.data.map((q: { id: number }) => q.id)).toEqual(expect.arrayContaining([rejected, removed]));
    expect((await auditOf("question", rejected)).map((a) => a.action)).toEqual(["question.reject"]);
    expect(await auditOf("question", removed)).toEqual([
      expect.objectContaining({ action: "question.approve" }),
      {
        action: "question.remove",
        staff_email: manager.email,
        after_json: '{"status":"rejected","reject_reason":"Spam"}',
      },
    ]);
  });

  it("support staff may not moderate, and a shopper finds no console", async () => {
    const [shopper, support] = await Promise.all([newUser(), newStaff("support")]);
    const id = await ask(shopper, await createProduct());
    expect((await call(support, "GET", "/admin/questions")).status).toBe(403);
    expect((await call(support, "POST", `/admin/questions/${id}/approve`)).status).toBe(403);
    expect((await call(shopper, "POST", `/admin/questions/${id}/approve`)).status).toBe(404);
  });
});

describe("staff answers", () => {
  it("publish at once with the question, and the asker is told once per answer, by email, in the language they asked in", async () => {
    const [asker, manager] = await Promise.all([newUser("ar"), newStaff("manager")]);
    const product = await createProduct();
    const id = await ask(asker, product, "هل يدعم الشحن السريع بقدرة 65 واط؟");

    const answered = await call(manager, "POST", `/admin/questions/${id}/answers`, { text: "Yes, up to 65 W." });
    expect(answered.status).toBe(201);
    expect(answered.body.data).toMatchObject({
      status: "published",
      lang: "ar",
      answers: [
        { text: "Yes, up to 65 W.", by_staff: true, verified_buyer: false, status: "published", author: manager.email },
      ],
    });
    const page = (await listOf(product.slug)).body.data;
    expect(page.data).toEqual([
      expect.objectContaining({
        id,
        lang: "ar",
        answers: [
          expect.objectContaining({ text: "Yes, up to 65 W.", lang: "en", by_staff: true, verified_buyer: false }),
        ],
      }),
    ]);
    expect((await auditOf("question", id)).map((a) => a.action)).toEqual(["question.answer"]);

    const link = `http://shop.test/ar/product-details/${product.slug}#questions`;
    const messages = await messagesTo(asker.email);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ topic: "question_answered", channel: "email", lang: "ar" });
    expect(JSON.parse(messages[0]!.params)).toMatchObject({ product: "جهاز اختبار", productUrl: link });
    await deliveredTo(asker.email).toEqual([
      expect.objectContaining({
        lang: "ar",
        body: expect.stringContaining(link),
        subject: expect.stringContaining("جهاز اختبار"),
      }),
    ]);

    // A second answer is a second message; nothing is sent twice.
    expect(
      (await call(manager, "POST", `/admin/questions/${id}/answers`, { text: "It also charges at 25 W." })).status,
    ).toBe(201);
    expect(await messagesTo(asker.email)).toHaveLength(2);
    expect(new Set((await messagesTo(asker.email)).map((m) => m.key)).size).toBe(2);
  });

  it("reach an account with only a phone by SMS", async () => {
    const [asker, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { phone } = (await env.DB.prepare("UPDATE users SET email = NULL WHERE id = ? RETURNING phone")
      .bind(asker.userId)
      .first<{ phone: string }>())!;
    const product = await createProduct();
    const id = await ask(asker, product);
    expect((await call(manager, "POST", `/admin/questions/${id}/answers`, { text: "Yes." })).status).toBe(201);
    expect(await messagesTo(phone)).toEqual([expect.objectContaining({ channel: "sms", lang: "en" })]);
    await deliveredTo(phone).toEqual([
      expect.objectContaining({
        channel: "sms",
        body: expect.stringContaining(`/en/product-details/${product.slug}#questions`),
      }),
    ]);
  });

  it("are refused on a rejected question, and checked like any input", async () => {
    const [asker, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const id = await ask(asker, await createProduct());
    expect((await call(manager, "POST", `/admin/questions/${id}/answers`, { text: "" })).status).toBe(422);
    expect((await call(manager, "POST", `/admin/questions/${id}/reject`, { reason: "Off topic" })).status).toBe(200);
    expect((await call(manager, "POST", `/admin/questions/${id}/answers`, { text: "Yes." })).status).toBe(409);
    expect((await call(manager, "POST", `/admin/questions/999999999/answers`, { text: "Yes." })).status).toBe(404);
    expect(await messagesTo(asker.email)).toEqual([]);
  });
});

describe("buyers' answers", () => {
  it("are taken only with the store's setting on and from an account with a delivered order of the product", async () => {
    const [asker, buyer, stranger, waiting, manager, owner] = await Promise.all([
      newUser("ar"),
      newUser(),
      newUser(),
      newUser(),
      newStaff("manager"),
      newStaff("owner"),
    ]);
    const order = await paidOrder(buyer);
    await deliver(manager, order.number);
    const { product } = order;
    // A paid order that has not arrived does not make a buyer of the product.
    const pending = await checkoutWith(waiting, product.id);
    expect(pending.status).toBe(201);
    await payOrder(waiting, pending.body.data.number);
    const id = await ask(asker, product);
    const answer = (who: Shopper, qid = id) =>
      call(who, "POST", `/client/questions/${qid}/answers`, { text: "Mine charges at 65 W." });

    // A pending question cannot be answered yet: it is not there.
    expect((await answer(buyer)).status).toBe(404);
    expect((await call(manager, "POST", `/admin/questions/${id}/approve`)).status).toBe(200);

    await allowBuyers(owner, false);
    const off = await answer(buyer);
    expect(off.status).toBe(403);
    expect(off.body.message).toBe("Only the store answers questions about its products.");
    expect((await call(buyer, "GET", `/client/questions/eligibility?product=${product.slug}`)).body.data).toEqual({
      can_answer: false,
    });

    await allowBuyers(owner, true);
    expect((await listOf(product.slug)).body.data.buyers_answer).toBe(true);
    for (const who of [stranger, waiting]) {
      const refused = await answer(who);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        "Only shoppers who received this product in a delivered order can answer its questions.",
      );
    }
    expect((await call(stranger, "GET", `/client/questions/eligibility?product=${product.slug}`)).body.data).toEqual({
      can_answer: false,
    });
    expect((await call(buyer, "GET", `/client/questions/eligibility?product=${product.slug}`)).body.data).toEqual({
      can_answer: true,
    });
    expect((await call(null, "GET", `/client/questions/eligibility?product=${product.slug}`)).status).toBe(401);

    const given = await answer(buyer);
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({
      data: { status: "pending" },
      message: "Thanks: your answer will appear once the store approves it.",
    });
    expect((await answer(buyer)).status).toBe(409);
    // Pending: not on the page, and nobody told yet.
    expect((await listOf(product.slug)).body.data.data[0].answers).toEqual([]);
    expect(await messagesTo(asker.email)).toEqual([]);
    const queue = await call(manager, "GET", "/admin/questions?tab=pending");
    const thread = queue.body.data.data.find((q: { id: number }) => q.id === id);
    expect(thread.answers).toEqual([
      expect.objectContaining({ id: given.body.data.id, status: "pending", verified_buyer: true, by_staff: false }),
    ]);

    const approved = await call(manager, "POST", `/admin/answers/${given.body.data.id}/approve`);
    expect(approved.status).toBe(200);
    expect((await listOf(product.slug)).body.data.data[0].answers).toEqual([
      expect.objectContaining({ text: "Mine charges at 65 W.", verified_buyer: true, by_staff: false }),
    ]);
    expect(await messagesTo(asker.email)).toEqual([
      expect.objectContaining({ key: `question_answered:answer-${given.body.data.id}:email`, lang: "ar" }),
    ]);
    expect((await auditOf("answer", given.body.data.id)).map((a) => a.action)).toEqual(["answer.approve"]);

    // Removed, then approved again: back on the page, and still one message.
    const removed = await call(manager, "POST", `/admin/answers/${given.body.data.id}/remove`, { reason: "Wrong" });
    expect(removed.status).toBe(200);
    expect((await listOf(product.slug)).body.data.data[0].answers).toEqual([]);
    expect((await call(manager, "POST", `/admin/answers/${given.body.data.id}/approve`)).status).toBe(200);
    expect(await messagesTo(asker.email)).toHaveLength(1);
    expect((await auditOf("answer", given.body.data.id)).map((a) => a.action)).toEqual([
      "answer.approve",
      "answer.remove",
      "answer.approve",
    ]);
    await allowBuyers(owner, false);
  });

  it("a rejected answer stays off the page with its reason; the asker hears nothing", async () => {
    const [asker, buyer, manager, owner] = await Promise.all([
      newUser(),
      newUser(),
      newStaff("manager"),
      newStaff("owner"),
    ]);
    const order = await paidOrder(buyer);
    await deliver(manager, order.number);
    const id = await ask(asker, order.product);
    expect((await call(manager, "POST", `/admin/questions/${id}/approve`)).status).toBe(200);
    await allowBuyers(owner, true);
    const given = await call(buyer, "POST", `/client/questions/${id}/answers`, { text: "Visit deals.sa for it" });
    expect(given.status).toBe(201);
    const queued = await call(manager, "GET", "/admin/questions?tab=pending");
    expect(queued.body.data.data.find((q: { id: number }) => q.id === id).answers[0].flags).toEqual(["link"]);
    const rejected = await call(manager, "POST", `/admin/answers/${given.body.data.id}/reject`, { reason: "A link" });
    expect(rejected.body.data.answers[0]).toMatchObject({ status: "rejected", reject_reason: "A link" });
    expect((await listOf(order.product.slug)).body.data.data[0].answers).toEqual([]);
    expect(await messagesTo(asker.email)).toEqual([]);
    expect((await auditOf("answer", given.body.data.id)).map((a) => a.action)).toEqual(["answer.reject"]);
    await allowBuyers(owner, false);
  });
});

describe("rate limits on asking and answering", () => {
  it(
    "an account's sixth question in a minute is refused with 429 and a clear message",
    async () => {
      await awayFromMinuteEdge();
      const shopper = await newUser();
      const product = await createProduct();
      for (let i = 0; i < 5; i++) await ask(shopper, product, `Is it question ${i} worth asking?`);
      // From another network too: the count is the account's.
      const sixth = await call(
        { headers: { ...shopper.headers, "cf-connecting-ip": freshIp() } },
        "POST",
        "/client/questions",
        {
          product: product.slug,
          text: "One question too many?",
        },
      );
      expect(sixth.status).toBe(429);
      expect(sixth.body.message).toBe("You are writing too quickly. Please wait a minute and try again.");
    },
    COUNTING_TIMEOUT,
  );

  it(
    "answers are counted too: an account's sixth answer in a minute is refused before anything is read",
    async () => {
      await awayFromMinuteEdge();
      const shopper = await newUser();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await call(shopper, "POST", "/client/questions/999999999/answers", { text: "Yes." })).status);
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    },
    COUNTING_TIMEOUT,
  );

  it(
    "a network's twenty-first question in a minute is refused, whichever accounts ask",
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      const product = await createProduct();
      const shoppers = await Promise.all(Array.from({ length: 21 }, () => newUser("ar")));
      const statuses: number[] = [];
      for (const s of shoppers)
        statuses.push(
          (
            await call({ headers: { ...s.headers, "cf-connecting-ip": ip } }, "POST", "/client/questions", {
              product: product.slug,
              text: "Is it available in black?",
            })
          ).status,
        );
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(201));
      expect(statuses[20]).toBe(429);
    },
    COUNTING_TIMEOUT,
  );
});
