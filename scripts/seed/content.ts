// The shop's content: services, pages (about, privacy, terms, shipping and returns) and the home
// banners, in English and Arabic. Pure data and SQL builders (no Node imports).
import { insertOrIgnore } from "./sql.ts";

type Text = { en: string; ar: string };

interface SeedService {
  slug: string;
  icon: string;
  /** Whole riyals. */
  priceFrom: number;
  name: Text;
  summary: Text;
  description: Text;
  features: { en: string[]; ar: string[] };
}

export const SERVICES: SeedService[] = [
  {
    slug: "device-repair",
    icon: "wrench",
    priceFrom: 99,
    name: { en: "Device Repair", ar: "صيانة الأجهزة" },
    summary: {
      en: "Screen, battery and charging-port repairs for phones, tablets and laptops by certified technicians.",
      ar: "إصلاح الشاشات والبطاريات ومنافذ الشحن للهواتف والأجهزة اللوحية واللابتوبات على يد فنيين معتمدين.",
    },
    description: {
      en: "Bring your device to any branch or book a pickup. We diagnose it for free, tell you the exact price before we start, and most screen and battery repairs are ready the same day. We use genuine or certified parts and every repair carries its own warranty.",
      ar: "أحضر جهازك إلى أي فرع أو احجز موعدًا لاستلامه. نفحصه مجانًا ونخبرك بالسعر الدقيق قبل البدء، وتجهز معظم إصلاحات الشاشات والبطاريات في اليوم نفسه. نستخدم قطعًا أصلية أو معتمدة، ولكل إصلاح ضمانه الخاص.",
    },
    features: {
      en: [
        "Free diagnosis",
        "Same-day screen and battery repairs",
        "Genuine or certified parts",
        "90-day repair warranty",
      ],
      ar: ["فحص مجاني", "إصلاح الشاشة والبطارية في اليوم نفسه", "قطع أصلية أو معتمدة", "ضمان الإصلاح لمدة 90 يومًا"],
    },
  },
  {
    slug: "installation",
    icon: "tools",
    priceFrom: 149,
    name: { en: "Home Installation", ar: "التركيب المنزلي" },
    summary: {
      en: "TV wall mounting, home cinema, Wi-Fi mesh and smart-home set-up in your home.",
      ar: "تعليق التلفزيون على الجدار وتركيب المسرح المنزلي وشبكات الواي فاي وأجهزة المنزل الذكي في منزلك.",
    },
    description: {
      en: "Our installers come to your home at a time you choose, mount your TV safely on any wall, hide the cables, connect your sound system and tune the picture. They can also set up mesh Wi-Fi across a villa and connect cameras, lights and speakers to one app.",
      ar: "يأتي فنيو التركيب إلى منزلك في الوقت الذي تختاره، ويعلقون التلفزيون بأمان على أي جدار، ويخفون الأسلاك، ويوصلون نظام الصوت ويضبطون الصورة. ويمكنهم أيضًا إعداد شبكة واي فاي تغطي الفيلا بالكامل وربط الكاميرات والإضاءة ومكبرات الصوت بتطبيق واحد.",
    },
    features: {
      en: [
        "Wall brackets for TVs up to 85 inches",
        "Cable management",
        "Mesh Wi-Fi and smart-home set-up",
        "Riyadh, Jeddah and Dammam",
      ],
      ar: [
        "حوامل جدارية للتلفزيونات حتى 85 بوصة",
        "ترتيب الأسلاك وإخفاؤها",
        "إعداد الواي فاي الشبكي والمنزل الذكي",
        "الرياض وجدة والدمام",
      ],
    },
  },
  {
    slug: "extended-warranty",
    icon: "shield",
    priceFrom: 79,
    name: { en: "Extended Warranty", ar: "الضمان الممتد" },
    summary: {
      en: "Add up to three more years of cover beyond the manufacturer's warranty.",
      ar: "أضف حتى ثلاث سنوات إضافية من الحماية بعد انتهاء ضمان الشركة المصنعة.",
    },
    description: {
      en: "Extended warranty covers electrical and mechanical faults after the manufacturer's warranty ends. Repairs are free, with no excess, and if a device cannot be repaired we replace it with one of equal specification. Buy it with your device or within 30 days of purchase.",
      ar: "يغطي الضمان الممتد الأعطال الكهربائية والميكانيكية بعد انتهاء ضمان الشركة المصنعة. الإصلاح مجاني دون أي تحمل، وإذا تعذر إصلاح الجهاز نستبدله بجهاز بالمواصفات نفسها. يمكنك شراؤه مع جهازك أو خلال 30 يومًا من الشراء.",
    },
    features: {
      en: [
        "One, two or three extra years",
        "No excess on repairs",
        "Replacement if repair is not possible",
        "Transferable to a new owner",
      ],
      ar: [
        "سنة أو سنتان أو ثلاث سنوات إضافية",
        "إصلاح دون أي تحمل",
        "استبدال الجهاز إذا تعذر إصلاحه",
        "قابل للنقل إلى مالك جديد",
      ],
    },
  },
  {
    slug: "data-transfer",
    icon: "transfer",
    priceFrom: 49,
    name: { en: "Data Transfer", ar: "نقل البيانات" },
    summary: {
      en: "We move your photos, contacts, chats and apps from your old device to the new one.",
      ar: "ننقل صورك وجهات اتصالك ومحادثاتك وتطبيقاتك من جهازك القديم إلى الجديد.",
    },
    description: {
      en: "Switching from Android to iPhone or the other way round? Our specialists transfer your contacts, photos, videos, WhatsApp chats and calendar safely, and wipe the old device securely if you are selling it. Your data never leaves the branch.",
      ar: "هل تنتقل من أندرويد إلى آيفون أو العكس؟ ينقل مختصونا جهات الاتصال والصور والفيديوهات ومحادثات واتساب والتقويم بأمان، ويمسحون الجهاز القديم مسحًا آمنًا إذا كنت ستبيعه. بياناتك لا تغادر الفرع أبدًا.",
    },
    features: {
      en: ["Android ↔ iPhone", "WhatsApp chat history", "Secure wipe of the old device", "Done while you wait"],
      ar: ["من أندرويد إلى آيفون والعكس", "سجل محادثات واتساب", "مسح آمن للجهاز القديم", "ننجزه أثناء انتظارك"],
    },
  },
  {
    slug: "trade-in",
    icon: "recycle",
    priceFrom: 0,
    name: { en: "Trade-In", ar: "استبدال الأجهزة القديمة" },
    summary: {
      en: "Trade in your old phone, tablet or laptop and put its value towards a new one.",
      ar: "استبدل هاتفك أو جهازك اللوحي أو اللابتوب القديم واستخدم قيمته في شراء جهاز جديد.",
    },
    description: {
      en: "Tell us the model and condition of your device and we give you an instant quote. Bring it to a branch, we check it in a few minutes and the value comes off your new purchase straight away. Devices we cannot resell are recycled responsibly.",
      ar: "أخبرنا بطراز جهازك وحالته ونعطيك عرض سعر فوريًا. أحضره إلى أحد الفروع، فنفحصه خلال دقائق وتُخصم قيمته من مشترياتك الجديدة فورًا. والأجهزة التي لا يمكن إعادة بيعها نعيد تدويرها بمسؤولية.",
    },
    features: {
      en: [
        "Instant quote",
        "Value off your new purchase",
        "Phones, tablets, laptops and watches",
        "Responsible recycling",
      ],
      ar: [
        "عرض سعر فوري",
        "خصم القيمة من مشترياتك الجديدة",
        "الهواتف والأجهزة اللوحية واللابتوبات والساعات",
        "إعادة تدوير مسؤولة",
      ],
    },
  },
  {
    slug: "device-setup",
    icon: "sparkles",
    priceFrom: 59,
    name: { en: "Device Setup", ar: "إعداد الأجهزة" },
    summary: {
      en: "Your new device ready to use: accounts, updates, email, security and your favourite apps.",
      ar: "جهازك الجديد جاهز للاستخدام: الحسابات والتحديثات والبريد والحماية وتطبيقاتك المفضلة.",
    },
    description: {
      en: "We unbox, update and set up your new phone, laptop or console, sign in to your accounts, configure email and backups, install the apps you use and show you the features that matter. Ideal for a gift or for a family member who prefers a helping hand.",
      ar: "نفتح جهازك الجديد ونحدّثه ونعدّه، سواء كان هاتفًا أو لابتوب أو جهاز ألعاب، ونسجل الدخول إلى حساباتك، ونضبط البريد والنسخ الاحتياطي، ونثبت التطبيقات التي تستخدمها ونعرّفك بأهم الميزات. مثالي للهدايا أو لأحد أفراد العائلة ممن يفضلون المساعدة.",
    },
    features: {
      en: [
        "Latest updates installed",
        "Accounts, email and backups",
        "Parental controls on request",
        "A short walkthrough of the features",
      ],
      ar: [
        "تثبيت آخر التحديثات",
        "الحسابات والبريد والنسخ الاحتياطي",
        "الرقابة الأبوية عند الطلب",
        "شرح مختصر لأهم الميزات",
      ],
    },
  },
];

interface SeedPage {
  slug: string;
  title: Text;
  excerpt: Text;
  body: Text;
}

export const PAGES: SeedPage[] = [
  {
    slug: "about-us",
    title: { en: "About us", ar: "من نحن" },
    excerpt: {
      en: "A Saudi electronics shop that sells genuine devices and stands behind them with real service.",
      ar: "متجر إلكترونيات سعودي يبيع الأجهزة الأصلية ويقف خلفها بخدمة حقيقية.",
    },
    body: {
      en: [
        "Souq Electronics started as a small phone shop and grew into a store for everything electronic: phones, laptops, TVs, cameras, gaming and smart-home devices. Everything we sell is genuine, comes with the agent's warranty in Saudi Arabia, and is priced in riyals with VAT included.",
        "## What we believe",
        "Buying a device is only the beginning. That is why we repair, install, set up and insure what we sell, and why our specialists will take the time to help you choose, in Arabic or in English.",
        "## Our service",
        "Order online and receive your purchase at home, with free next-day delivery in the main cities above the free-shipping threshold. Our service team answers calls and messages every day from 9 am to 11 pm.",
      ].join("\n\n"),
      ar: [
        "بدأ سوق الإلكترونيات متجرًا صغيرًا للهواتف، ثم نما ليصبح متجرًا لكل ما هو إلكتروني: الهواتف واللابتوبات والتلفزيونات والكاميرات وأجهزة الألعاب والمنزل الذكي. كل ما نبيعه أصلي، ويأتي بضمان الوكيل في المملكة العربية السعودية، وأسعاره بالريال شاملة ضريبة القيمة المضافة.",
        "## ما نؤمن به",
        "شراء الجهاز ليس إلا البداية. لهذا نصلح ما نبيعه ونركّبه ونعدّه ونؤمّن عليه، ولهذا يخصص مختصونا الوقت الكافي لمساعدتك في الاختيار، بالعربية أو بالإنجليزية.",
        "## خدمتنا",
        "اطلب عبر الإنترنت واستلم مشترياتك في منزلك، مع توصيل مجاني في اليوم التالي داخل المدن الرئيسية عند تجاوز حد الشحن المجاني. ويرد فريق خدمة العملاء على المكالمات والرسائل يوميًا من التاسعة صباحًا حتى الحادية عشرة مساءً.",
      ].join("\n\n"),
    },
  },
  {
    slug: "privacy-policy",
    title: { en: "Privacy policy", ar: "سياسة الخصوصية" },
    excerpt: {
      en: "What personal data we collect, why, how long we keep it and the choices you have.",
      ar: "ما البيانات الشخصية التي نجمعها، ولماذا، ومدة احتفاظنا بها، والخيارات المتاحة لك.",
    },
    body: {
      en: [
        "This policy explains how we handle your personal data when you visit the shop, create an account, place an order or contact us. We process data in line with the Saudi Personal Data Protection Law (PDPL).",
        "## What we collect",
        "Your name, email address, phone number and delivery addresses when you give them to us; your orders, payments, deliveries and returns; your reviews, questions, wishlist and back-in-stock alerts; your consents to messages; and technical data such as your language choice. We never store your full card number: payments are handled by our payment provider.",
        "## Why we use it",
        "To deliver your orders, provide after-sales service, keep your account secure, answer your messages and meet our legal obligations such as keeping tax invoices. News and offers, and reminders about a cart you left, are sent only if you agreed to them. We do not sell your data.",
        "## How long we keep it",
        "Your account and what you saved in it: until you delete the account. Orders and their tax invoices and credit notes: 6 years, as Saudi VAT law requires; once your account is deleted they keep their amounts and lines but not your name, email, phone or address (a business buyer's company name, VAT number and address stay, as a tax invoice requires). A guest's cart: 30 days after it was last changed. The log of messages we sent you about an order: as long as the order. Our database backups roll off within 30 days.",
        "## Your rights",
        'You may see your data, take a copy of it, correct it, and have it deleted. Signed in, open your profile\'s "Privacy and your data" page: download your data as a file, change your consents, or delete your account (immediately, after confirming your password or a code we send you). Without an account, or if you prefer, write to us through the contact page and our staff will do the same for you.',
        "## Consent and withdrawing it",
        "Every consent is optional and separate from buying. We keep what you agreed to, the exact wording, when, in which language and where. You can withdraw a consent at any time in one click on the same page, or with the link at the end of every such message; order messages are not affected.",
      ].join("\n\n"),
      ar: [
        "توضح هذه السياسة كيف نتعامل مع بياناتك الشخصية عند زيارتك للمتجر أو إنشاء حساب أو تقديم طلب أو التواصل معنا. ونعالج البيانات وفقًا لنظام حماية البيانات الشخصية في المملكة العربية السعودية.",
        "## ما نجمعه",
        "اسمك وبريدك الإلكتروني ورقم جوالك وعناوين التوصيل عندما تزودنا بها، وطلباتك ومدفوعاتك وشحناتك ومرتجعاتك، وتقييماتك وأسئلتك وقائمة أمنياتك وتنبيهات التوفر، وموافقاتك على الرسائل، وبيانات تقنية مثل اللغة التي تختارها. لا نحتفظ أبدًا برقم بطاقتك كاملًا، إذ يتولى مزود الدفع معالجة المدفوعات.",
        "## لماذا نستخدمها",
        "لتوصيل طلباتك وتقديم خدمة ما بعد البيع والحفاظ على أمان حسابك والرد على رسائلك والوفاء بالتزاماتنا النظامية مثل الاحتفاظ بالفواتير الضريبية. ولا نرسل الأخبار والعروض أو تذكير السلة إلا إذا وافقت عليها. نحن لا نبيع بياناتك.",
        "## مدة الاحتفاظ بها",
        "حسابك وما حفظته فيه: حتى تحذف الحساب. الطلبات وفواتيرها الضريبية وإشعارات الدائن: 6 سنوات كما يفرض نظام ضريبة القيمة المضافة؛ وبعد حذف حسابك تبقى مبالغها وبنودها دون اسمك أو بريدك أو جوالك أو عنوانك (ويبقى اسم المنشأة ورقمها الضريبي وعنوانها للمشتري من المنشآت كما تتطلب الفاتورة الضريبية). سلة الضيف: 30 يومًا من آخر تعديل. سجل الرسائل التي أرسلناها إليك عن طلب: ما بقي الطلب. وتُمحى النسخ الاحتياطية لقاعدة البيانات خلال 30 يومًا.",
        "## حقوقك",
        'يحق لك الاطلاع على بياناتك وأخذ نسخة منها وتصحيحها وحذفها. بعد تسجيل الدخول افتح صفحة "الخصوصية وبياناتك" في ملفك الشخصي: نزّل بياناتك في ملف، أو غيّر موافقاتك، أو احذف حسابك (فورًا، بعد تأكيد كلمة المرور أو رمز نرسله إليك). وإن لم يكن لديك حساب، أو إن فضّلت، راسلنا عبر صفحة التواصل وسيتولى فريقنا ذلك نيابة عنك.',
        "## الموافقة وسحبها",
        "كل موافقة اختيارية ومنفصلة عن الشراء. ونحتفظ بما وافقت عليه ونصه الحرفي ومتى وبأي لغة وأين. ويمكنك سحب موافقتك في أي وقت بنقرة واحدة في الصفحة نفسها، أو بالرابط في آخر كل رسالة من هذا النوع؛ ولا يؤثر ذلك في رسائل الطلبات.",
      ].join("\n\n"),
    },
  },
  {
    slug: "terms",
    title: { en: "Terms and conditions", ar: "الشروط والأحكام" },
    excerpt: {
      en: "The rules that apply when you use the shop and buy from us.",
      ar: "القواعد التي تنطبق عند استخدامك للمتجر والشراء منا.",
    },
    body: {
      en: [
        "By using this shop and placing an order you agree to these terms. Please read them together with our privacy policy and our shipping and returns policy.",
        "## Prices and payment",
        "Prices are in Saudi riyals and include 15% VAT. An order is confirmed once payment succeeds. If a price was shown in error we will contact you before shipping, and you may cancel for a full refund.",
        "## Stock and quantities",
        "Products are reserved for your order when you check out. Some products have a maximum quantity per order so that more customers can buy them.",
        "## Warranty",
        "Devices carry the manufacturer's warranty through the authorised agent in Saudi Arabia. Keep your invoice: it is your proof of purchase.",
        "## Accounts",
        "You are responsible for keeping your password private. We may suspend accounts used for fraud or abuse.",
      ].join("\n\n"),
      ar: [
        "باستخدامك هذا المتجر وتقديمك طلبًا فإنك توافق على هذه الشروط. يرجى قراءتها مع سياسة الخصوصية وسياسة الشحن والإرجاع.",
        "## الأسعار والدفع",
        "الأسعار بالريال السعودي وتشمل ضريبة القيمة المضافة بنسبة 15%. يُؤكد الطلب بعد نجاح الدفع. وإذا ظهر سعر بالخطأ فسنتواصل معك قبل الشحن، ويحق لك إلغاء الطلب واسترداد المبلغ كاملًا.",
        "## المخزون والكميات",
        "تُحجز المنتجات لطلبك عند إتمام الشراء. ولبعض المنتجات حد أقصى للكمية في الطلب الواحد ليتمكن عدد أكبر من العملاء من شرائها.",
        "## الضمان",
        "تأتي الأجهزة بضمان الشركة المصنعة عبر الوكيل المعتمد في المملكة العربية السعودية. احتفظ بفاتورتك فهي إثبات الشراء.",
        "## الحسابات",
        "أنت مسؤول عن الحفاظ على سرية كلمة المرور. ويحق لنا إيقاف الحسابات المستخدمة في الاحتيال أو الإساءة.",
      ].join("\n\n"),
    },
  },
  {
    slug: "shipping-returns",
    title: { en: "Shipping and returns", ar: "الشحن والإرجاع" },
    excerpt: {
      en: "Delivery times and costs, and how to return or exchange a product.",
      ar: "مدد التوصيل وتكاليفه، وكيفية إرجاع المنتج أو استبداله.",
    },
    body: {
      en: [
        "## Delivery",
        "We deliver across Saudi Arabia. Orders placed before 6 pm in Riyadh, Jeddah and Dammam arrive the next working day; other cities take two to five working days. Shipping is a flat rate and free above the free-shipping threshold shown at checkout.",
        "## Tracking",
        "You receive your order number by email. Follow its status at any time on the order tracking page with the order number and your email or phone.",
        "## Returns",
        "You may return a product within 7 days of delivery if it is unopened and in its original packaging, and within 7 days if it is faulty. Opened software, gift cards and hygiene products such as earbuds cannot be returned unless faulty.",
        "## Refunds",
        "Refunds go back to the original payment method within 14 days of us receiving the product.",
      ].join("\n\n"),
      ar: [
        "## التوصيل",
        "نوصل إلى جميع مناطق المملكة العربية السعودية. الطلبات المقدمة قبل السادسة مساءً في الرياض وجدة والدمام تصل في يوم العمل التالي، وتستغرق المدن الأخرى من يومي عمل إلى خمسة أيام. رسوم الشحن ثابتة، والشحن مجاني عند تجاوز الحد الموضح في صفحة الدفع.",
        "## التتبع",
        "يصلك رقم الطلب عبر البريد الإلكتروني، ويمكنك متابعة حالته في أي وقت من صفحة تتبع الطلب باستخدام رقم الطلب وبريدك الإلكتروني أو رقم هاتفك.",
        "## الإرجاع",
        "يمكنك إرجاع المنتج خلال 7 أيام من التسليم إذا كان غير مفتوح وفي عبوته الأصلية، وخلال 7 أيام إذا كان معيبًا. لا يمكن إرجاع البرامج المفتوحة وبطاقات الهدايا ومنتجات العناية الشخصية مثل السماعات الداخلية إلا إذا كانت معيبة.",
        "## استرداد المبالغ",
        "تُعاد المبالغ إلى وسيلة الدفع الأصلية خلال 14 يومًا من استلامنا المنتج.",
      ].join("\n\n"),
    },
  },
];

interface SeedBanner {
  id: number;
  title: Text;
  subtitle: Text;
  cta: Text;
  link: string;
  from: string;
  to: string;
  motif: "phone" | "laptop" | "headphones" | "tv" | "gamepad" | "watch";
}

export const BANNERS: SeedBanner[] = [
  {
    id: 1,
    title: { en: "The new iPhone 16 Pro is here", ar: "آيفون 16 برو الجديد وصل" },
    subtitle: { en: "Order today with free next-day delivery.", ar: "اطلبه اليوم مع توصيل مجاني في اليوم التالي." },
    cta: { en: "Shop iPhone", ar: "تسوّق آيفون" },
    link: "/products?category=iphone",
    from: "#1e293b",
    to: "#7c6f64",
    motif: "phone",
  },
  {
    id: 2,
    title: { en: "Save up to 20% on TVs", ar: "وفّر حتى 20% على التلفزيونات" },
    subtitle: {
      en: "OLED and Mini LED, with free wall mounting.",
      ar: "شاشات OLED وMini LED مع تركيب مجاني على الجدار.",
    },
    cta: { en: "See the offers", ar: "شاهد العروض" },
    link: "/products?category=tvs&sort=price_asc",
    from: "#0f172a",
    to: "#2563eb",
    motif: "tv",
  },
  {
    id: 3,
    title: { en: "Level up your gaming", ar: "ارتقِ بتجربة اللعب" },
    subtitle: { en: "Consoles, controllers and gaming laptops.", ar: "أجهزة الألعاب وأذرع التحكم ولابتوبات الألعاب." },
    cta: { en: "Shop gaming", ar: "تسوّق الألعاب" },
    link: "/products?category=gaming",
    from: "#312e81",
    to: "#db2777",
    motif: "gamepad",
  },
];

/** Statements that load services, pages and banners; safe to re-run. */
export function contentStatements(): string[] {
  const statements: string[] = [];
  SERVICES.forEach((s, i) =>
    statements.push(
      insertOrIgnore("services", {
        id: i + 1,
        slug: s.slug,
        name_en: s.name.en,
        name_ar: s.name.ar,
        summary_en: s.summary.en,
        summary_ar: s.summary.ar,
        description_en: s.description.en,
        description_ar: s.description.ar,
        features_en: JSON.stringify(s.features.en),
        features_ar: JSON.stringify(s.features.ar),
        icon: s.icon,
        price_from: s.priceFrom * 100,
        currency: "SAR",
        sort_order: i,
      }),
    ),
  );
  PAGES.forEach((p, i) =>
    statements.push(
      insertOrIgnore("pages", {
        id: i + 1,
        slug: p.slug,
        title_en: p.title.en,
        title_ar: p.title.ar,
        excerpt_en: p.excerpt.en,
        excerpt_ar: p.excerpt.ar,
        body_en: p.body.en,
        body_ar: p.body.ar,
        sort_order: i,
        updated_at: "2026-01-15T09:00:00.000Z",
      }),
    ),
  );
  BANNERS.forEach((b, i) =>
    statements.push(
      insertOrIgnore("banners", {
        id: b.id,
        title_en: b.title.en,
        title_ar: b.title.ar,
        subtitle_en: b.subtitle.en,
        subtitle_ar: b.subtitle.ar,
        cta_en: b.cta.en,
        cta_ar: b.cta.ar,
        link: b.link,
        colour_from: b.from,
        colour_to: b.to,
        motif: b.motif,
        sort_order: i,
        active: 1,
      }),
    ),
  );
  return statements;
}
