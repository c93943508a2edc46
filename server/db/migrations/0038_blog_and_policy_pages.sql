CREATE TABLE "content_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"author" text,
	"body" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"published_on" date,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_pages_kind" CHECK ("content_pages"."kind" in ('post', 'page')),
	CONSTRAINT "content_pages_slug" CHECK ("content_pages"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "content_pages_published_on" CHECK (not "content_pages"."published" or "content_pages"."published_on" is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "content_pages_kind_slug" ON "content_pages" USING btree ("kind","slug");--> statement-breakpoint
-- The pages and articles the shop shipped with (content/*.md until now), published as they were, so a fresh
-- shop shows exactly what it showed. Their {shopName}, {phone} and {email} are filled when a page is shown.
INSERT INTO content_pages (kind, slug, title, description, author, body, published, published_on) VALUES
('page', 'cancellation-refund', $md$Cancellation and Refund Policy$md$, $md$We want you to be happy with every order from {shopName}. This policy explains when you can cancel an order, what to do if something arrives damaged or not as expected, and how refunds work. It forms part of our Terms and Conditions and does not affect your rights under Indian consumer protection law.$md$, NULL, $md$We want you to be happy with every order from {shopName}. This policy explains when you can cancel an order, what to do if something arrives damaged or not as expected, and how refunds work. It forms part of our [Terms and Conditions](/terms) and does not affect your rights under Indian consumer protection law.

## Cancelling an order

You can cancel an order **within 6-8 days of placing it, as long as it has not yet been shipped**. We usually hand orders to the courier within 3-5 days, so please contact us as early as you can. Once an order has been handed to the courier or speed post, it can no longer be cancelled.

To cancel, write to {email} or call {phone} with your order details. We will confirm the cancellation by e-mail. If you have already paid online, the refund is handled as described below.

## Perishable items

Our nutrition powders and food mixes are perishable. This includes Moringa Powder, Curry Leaves Powder, Sathu Maavu, ABC Malt, Badam Mix, Protein Mix, Immunity Booster and Chilli Powder, and any combo that contains them. **Orders for perishable items cannot be cancelled, except for quality issues.** If a perishable product arrives spoiled, damp, infested, or with a broken seal or an expired date, please report it as described below.

## Damaged, defective or not as shown

Please check your order as soon as it arrives. If a product is damaged, defective, or not as shown on our website (for example, a wrong product, wrong size or missing item), **report it within 6-8 days of receipt**. Send us:

- your order details (the name and e-mail address used, and the order date);
- the product or products affected;
- clear photographs of the product, the label and the outer packaging, or an unboxing video if you have one;
- a short description of the problem.

We will review your report and reply by e-mail. If we approve it, we will offer a replacement or a refund. If we need the product back, we will explain how to return it; please do not send anything back before hearing from us. Reports made after the 6-8 day window may not be accepted.

## What we cannot accept

Because our products are for personal care and consumption, we cannot take back:

- products that have been opened or used, where the complaint is not about damage, a defect or a mismatch with the listing;
- products damaged through incorrect storage or use after delivery;
- reactions to a product where the patch test on the pack was not done. We are always happy to advise, though, so please get in touch;
- natural variations in colour, texture or smell between batches, which are normal for products made with natural ingredients.

## Warranty products

Some items may carry a manufacturer's warranty. Claims under that warranty must be made directly with the manufacturer, following the warranty card or documents supplied with the product. We are glad to share the manufacturer's contact details if you need them.

## Refunds

Once a refund is approved, **it is processed within 6-8 days**.

- **UPI, card or netbanking payments** are refunded through Razorpay to the original payment method. After we process the refund, your bank or card issuer may take a few more working days to show it in your account.
- **Cash on delivery orders** are refunded by UPI or bank transfer. We will ask you for the details by e-mail.

If you receive a damaged, defective or wrong product, any shipping charge you paid for that order is refunded along with the product value. If an order is cancelled before shipping, the full amount you paid is refunded. A discount code used on a refunded order cannot be reused, because each code can be used only once per customer.

We will e-mail you when your refund has been processed. If you have not received it within a reasonable time after that, contact us and we will check with Razorpay or our bank.

## Replacements

If a replacement is agreed, we send it at no extra cost, subject to stock. If the product is no longer available, we will refund it instead.

## How to reach us

- Helpdesk phone: {phone}
- Helpdesk e-mail: {email}

If you are not satisfied with how your request was handled, you can contact our Grievance Officer at {grievanceEmail}. The Grievance Officer will acknowledge your complaint within 48 hours and aim to resolve it within one month, as required by the Consumer Protection (E-Commerce) Rules, 2020.
$md$, true, '2026-11-24'),
('page', 'contact', $md$Contact Us$md$, $md$We read every message. Whether you have a question about a product, need help with an order or want advice on which product suits you, we are happy to help.$md$, NULL, $md$We read every message. Whether you have a question about a product, need help with an order or want advice on which product suits you, we are happy to help.

## How to reach us

- **Phone:** {phone}
- **E-mail:** {email}
- **Contact form:** use the form below and we will reply by e-mail.

## Helpdesk hours

Monday to Saturday, 10:00 to 18:00 IST. We are closed on Sundays. Messages sent outside these hours are answered on the next working day.

## Writing about an order

To help us answer quickly, please include:

- the name and e-mail address used for the order;
- the order date and the products you ordered;
- what you need, for example a delivery update, a change of address, a cancellation or a problem with a product;
- for a damaged, defective or wrong item, clear photographs of the product, the label and the packaging.

Please report damaged or incorrect items within 6-8 days of receiving them. Cancellation requests must reach us within 6-8 days of ordering and before the order is shipped.

## Grievance Officer

If you have a complaint that has not been resolved, you can write to our Grievance Officer at {grievanceEmail}.
$md$, true, '2026-11-24'),
('page', 'cookie-policy', $md$Cookie Policy$md$, $md$This policy explains how {shopName} uses cookies and similar browser storage on our website. We use as little as possible, and only what the shop needs to work. We do not use advertising trackers.$md$, NULL, $md$This policy explains how {shopName} uses cookies and similar browser storage on our website. We use as little as possible, and only what the shop needs to work. We do not use advertising trackers.

## What cookies and local storage are

A **cookie** is a small text file that a website asks your browser to keep, so that it can recognise you on your next page or visit. **Local storage** and **session storage** are similar features built into your browser. They let a website keep small pieces of information on your own device. Local storage stays until you clear it. Session storage is cleared when you close the browser tab.

Information in local and session storage stays on your device. It is not sent to us with every page request, although the website can read it while you are using it.

## What we use

### Sign-in session cookie

When you sign in, our hosted sign-in service sets a session cookie so that you stay signed in as you move between pages. It tells the website which account you are using, so we can show your saved cart, orders, questions and settings. This cookie is strictly necessary. Without it you cannot stay signed in.

### Theme preference (local storage)

If you switch between the light and dark themes, we store your choice in local storage, so the website looks the way you like on your next visit. This contains no personal information.

### Guest cart (local storage)

If you add products to your cart without signing in, the cart is saved in your browser's local storage, so it is still there if you close the tab and come back later. When you sign in, the items in this guest cart are merged into the cart saved with your account, and the copy in your browser is removed.

### Used discount codes (local and session storage)

To make sure each discount code is used only once, we keep a list of codes you have already applied. If you are signed in, this list is kept in local storage for your account. If you are signed out, it is kept in session storage and cleared when you close the tab.

## Third parties

**Sign-in providers.** If you choose to sign in with Google, Facebook, GitHub or Twitter, you will briefly use that provider's own sign-in page. The provider may set its own cookies there, under its own privacy and cookie policies. We do not control those cookies.

**Payments.** If you pay online, the Razorpay checkout may use cookies or similar storage that it needs to process the payment securely and to prevent fraud. Razorpay's own policies apply to those.

Apart from these, we do not place cookies from other companies on our website.

## What we do not use

- No advertising or retargeting cookies.
- No cross-site tracking or social media tracking pixels.
- No selling or sharing of browsing data with advertisers.

If we ever decide to add other cookies that are not strictly necessary, we will update this policy first and ask for your consent where the law requires it.

## Managing cookies and storage

You can view and delete cookies and site data at any time in your browser settings. Most browsers also let you block cookies altogether. Please note:

- If you block or delete the sign-in cookie, you will be signed out and will need to sign in again. If cookies are blocked entirely, you may not be able to sign in at all.
- If you clear local storage while signed out, your guest cart and theme choice will be lost. A cart saved to your account is not affected.
- Clearing storage does not make a used discount code usable again. Each code can be used only once per customer.

Help pages for common browsers (Chrome, Firefox, Safari and Edge) explain how to manage cookies and site data. Look for "cookies and site data" or "privacy" in your browser's settings menu.

## More information

For details of what personal data we collect and your rights under the Digital Personal Data Protection Act, 2023, please read our [Privacy Policy](/privacy). If you have any questions about this Cookie Policy, write to us at {email} or call {phone}.

We may update this policy from time to time. The latest version will always be on this page.
$md$, true, '2026-11-24'),
('page', 'privacy', $md$Privacy Policy$md$, $md$This policy explains what personal data {shopName} collects, why, who we share it with and what choices you have. We process personal data in line with the Digital Personal Data Protection Act, 2023 and other Indian laws that apply to us.$md$, NULL, $md$This policy explains what personal data {shopName} collects, why, who we share it with and what choices you have. We process personal data in line with the Digital Personal Data Protection Act, 2023 and other Indian laws that apply to us.

## Who we are

{shopName} is an online shop based in India selling natural hair care, skin care, body care and nutrition products. We are the "Data Fiduciary" that decides how your personal data is used. You can reach us at {email} or {phone}.

## What we collect

**Account details.** When you sign up or sign in we receive your e-mail address and an account identifier from our hosted sign-in service. You can sign in with an e-mail and password, with a one-time e-mail link, or with Google, Facebook, GitHub or Twitter. These providers share basic profile details with us, usually your e-mail address and sometimes your name and profile picture. We never see your password for those services.

**Order details.** To deliver an order we collect your name, delivery address, phone number and e-mail address, the products you bought, any discount code you used and how you chose to pay.

**Payment details.** Online payments by UPI, card or netbanking are handled by Razorpay. We receive the payment status and a transaction reference, never your full card number, CVV, UPI PIN or netbanking password. For cash on delivery, the courier collects payment at your door.

**Cart and preferences.** If you are signed in, your cart is saved to your account so it is available on your other devices. If not, it stays in your own browser. We also remember your theme choice and which discount codes you have used. See our [Cookie Policy](/cookie-policy) for details.

**Messages, questions and reviews.** When you use the contact form we collect your name, e-mail address and message. If you ask a question about a product or write a review, we store what you submit together with your account details.

## Why we use it

We use your personal data to:

- manage your account and sync your cart across devices;
- process and deliver your orders and e-mail order confirmations;
- take payments, issue refunds and prevent fraud;
- answer your messages, questions and complaints;
- keep the website secure and working;
- meet our legal, tax and accounting obligations.

We rely on your consent, given when you create an account, place an order or send us a message, and on the legitimate uses allowed by the Digital Personal Data Protection Act, 2023, such as complying with the law. We do not sell your personal data, use advertising trackers or build advertising profiles about you.

## Who we share it with

We share only what each party needs to do its job:

- **Couriers and India Post** receive your name, address and phone number to deliver your parcel.
- **Razorpay** processes online payments and refunds.
- **Our hosting, sign-in and database providers** store account, cart, question and review data on our behalf.
- **Our form-handling provider** delivers contact form messages to our inbox.
- **Government authorities** where the law requires us to disclose information.

Some of these providers may store data outside India. We use reputable providers with suitable safeguards and follow any restrictions the Government of India places on such transfers.

## How long we keep it

We keep account data for as long as your account is open. Order and invoice records are kept for the period required by tax and accounting laws, usually up to eight years. Contact messages are kept for as long as needed to resolve your query. Data we no longer need is deleted or made anonymous.

## Your rights

Under the Digital Personal Data Protection Act, 2023 you have the right to:

- ask for a summary of the personal data we hold about you and how it is used;
- ask us to correct, complete or update your data;
- ask us to erase your data where it is no longer needed, subject to legal retention rules;
- withdraw your consent at any time (this does not affect processing already done, and we may then be unable to complete an order);
- nominate another person to exercise your rights in case of death or incapacity;
- have your grievances addressed.

To use any of these rights, write to {email} from the e-mail address linked to your account.

## Children

Our website is meant for adults. If you are under 18, please use it only with the consent of a parent or lawful guardian. We do not track children or target them with advertising.

## Security

We use encrypted connections (HTTPS), trusted payment and sign-in providers and access controls. No website is completely secure, so please keep your password safe and tell us promptly if you think your account has been misused.

## Grievance Officer

If you have a concern about how your personal data is handled, contact our Grievance Officer at {grievanceEmail} or {phone}. If you are not satisfied with our response, you may approach the Data Protection Board of India.

## Changes to this policy

We may update this policy from time to time. The latest version is always on this page, and we will announce significant changes on the website or by e-mail.
$md$, true, '2026-11-24'),
('page', 'shipping-delivery', $md$Shipping and Delivery Policy$md$, $md$This policy explains how {shopName} packs, ships and delivers your order, what shipping costs and what to do if something goes wrong on the way. If you have a question that is not answered here, contact our helpdesk at {phone} or {email}.$md$, NULL, $md$This policy explains how {shopName} packs, ships and delivers your order, what shipping costs and what to do if something goes wrong on the way. If you have a question that is not answered here, contact our helpdesk at {phone} or {email}.

## Where we ship

We are based in India and ship to addresses across the country. We can also send international orders. Before you place an international order, please write to {email} with your full address and the products you want. We will tell you whether we can ship to your country and how much it will cost.

## How we ship

All orders, domestic and international, are sent by registered courier or by India Post speed post. We choose the service that can reach your pin code most reliably. Products are packed in eco-friendly packaging, and combos can be gift-wrapped free of charge if you ask for it when you order.

## When your order leaves us

We hand your order to the courier or speed post within 3-5 days of the order being placed. Once the order is placed, we send a confirmation to the e-mail address you gave us. If a product is unexpectedly out of stock, we will contact you before dispatch and offer a choice between waiting, a replacement or a refund.

## Shipping charges

For delivery within India:

- **Free shipping** on orders of ₹499 or more.
- **₹49** shipping on orders below ₹499.

The ₹499 limit is checked against your order total after any discount code has been applied. For example, an order of ₹599 with a 20% discount comes to ₹479, so the ₹49 shipping charge applies. All product prices already include GST. The shipping charge, if any, is shown at checkout before you pay.

For international orders, we will tell you the shipping cost before we accept the order. Any customs duties, import taxes or clearance fees charged by the destination country are paid by the customer.

## Delivery times

After we hand over your parcel, delivery time depends on the courier and your location. Large cities are usually reached sooner than smaller towns and remote areas. Where the courier gives us a tracking or consignment number, we will share it with you so you can follow your parcel on the courier's or India Post's website.

Once a parcel has been handed to the courier, its delivery is in the courier's hands. {shopName} is not liable for delays caused by the courier or speed post, or for delays caused by weather, strikes, festivals, local restrictions or other events beyond our control. If your parcel seems stuck, contact us and we will follow up with the courier for you.

## Delivery address

We deliver to the address you give us at checkout. Please check your name, full address, pin code and phone number carefully, because couriers often call before delivering. If you notice a mistake, contact us straight away. We can change the address only if the order has not yet been handed to the courier.

If a parcel is returned to us because the address was incomplete or wrong, or because nobody was available to receive it after the courier's attempts, we will contact you. We can re-send it once you pay the shipping charge again, or refund the product value less the shipping costs we have paid.

## Cash on delivery

If you choose cash on delivery, please keep the exact amount ready and pay the courier when the parcel arrives. Refusing a cash on delivery parcel without a valid reason costs us shipping both ways. We may ask customers who repeatedly refuse parcels to pay online for future orders.

## When your parcel arrives

Please check the outer packaging when you receive your parcel. If it is torn, crushed, wet or looks tampered with, note this with the delivery person if you can and take photographs. If a product arrives damaged, defective or not as shown on our website, tell us within 6-8 days of receipt at {email} or {phone}, with your order details and photographs. Our [Cancellation and Refund Policy](/cancellation-refund) explains what happens next.

Our nutrition powders and food mixes are perishable. Open the parcel soon after delivery and store these products in a cool, dry place in an airtight container, as shown on the pack.

## Contact

- Helpdesk phone: {phone}
- Helpdesk e-mail: {email}
$md$, true, '2026-11-24'),
('page', 'terms', $md$Terms and Conditions$md$, $md$These terms apply when you use the {shopName} website or buy from us. By using the website or placing an order, you agree to them.$md$, NULL, $md$These terms apply when you use the {shopName} website or buy from us. By using the website or placing an order, you agree to them.

## About us

{shopName} is an online shop based in India that sells natural hair care, skin care, body care and nutrition products. You can contact us at {email} or {phone}.

## Using the website

You must be at least 18 years old to place an order, or do so with the involvement of a parent or guardian. You agree to give us accurate information and not to misuse the website, for example by trying to break into it, disrupt it or use it for anything unlawful.

## Your account

You can shop as a guest or create an account using an e-mail and password, a one-time e-mail link, or a Google, Facebook, GitHub or Twitter account. You are responsible for keeping your sign-in details safe and for activity under your account. Tell us straight away at {email} if you think someone else has used it. We may suspend accounts used for fraud or abuse.

## Products

Our products are made with natural ingredients. Colour, texture and smell can vary slightly between batches, and photographs on screen may not match the product exactly. Our products are cosmetic and food products. They are not medicines and are not meant to diagnose, treat or prevent any disease. Please read the ingredients and directions on each pack, do a patch test before using a new hair or skin product, and speak to a doctor if you are pregnant, nursing, have allergies or have a medical condition.

Nutrition powders and food mixes are perishable. Store them as shown on the pack and use them before the date given.

## Prices and tax

All prices are in Indian rupees (₹) and include GST. Shipping charges, if any, are shown at checkout before you pay. We may change prices at any time, but the price shown when you place your order is the price you pay. If a product is listed at a clearly wrong price because of an error, we may cancel the order and refund any amount you have paid.

## Discount codes

Discount codes are subject to their stated conditions, including any minimum order value. One code can be applied to an order, and each code can be used only once per customer. A code counts as used as soon as it is applied, even if you remove it before paying. Codes have no cash value and may be withdrawn or changed at any time.

## Orders

Your order is an offer to buy. After you place it, we send a confirmation by e-mail. We may decline or cancel an order if a product is out of stock, if we cannot deliver to your address, or if we suspect fraud. If we do, we will refund any amount you have paid.

## Payment

You can pay by cash on delivery, or online by UPI, debit or credit card or netbanking through Razorpay. Online payments are subject to Razorpay's terms and your bank's terms. We do not store your card or banking details.

## Shipping, cancellation and refunds

Orders are handed to a registered courier or speed post within 3-5 days. Details of shipping charges and delivery are in our [Shipping and Delivery Policy](/shipping-delivery). Cancellations, damaged items and refunds are covered by our [Cancellation and Refund Policy](/cancellation-refund). Both policies form part of these terms.

## Reviews, questions and messages

If you post a review or question, you confirm that it is your own honest opinion and does not contain anything unlawful, offensive or misleading, or anyone else's personal information. You allow us to display it on the website. We may edit or remove content that breaks these terms.

## Intellectual property

The text, photographs, logos and design of the website belong to {shopName} or are used with permission. You may not copy or reuse them for commercial purposes without our written consent.

## Limitation of liability

We cannot promise the website will always be free of errors or interruptions. Once an order is handed to the courier, delivery times are in the courier's hands. We are not liable for delays caused by the courier or by events beyond our control, such as natural disasters, strikes or government restrictions. As far as the law allows, our total liability for any order is limited to the amount you paid for it. Nothing in these terms limits your rights under the Consumer Protection Act, 2019.

## Privacy

How we handle your personal data is explained in our [Privacy Policy](/privacy) and [Cookie Policy](/cookie-policy).

## Grievance Officer

As required by the Consumer Protection (E-Commerce) Rules, 2020, we have appointed a Grievance Officer. You can reach the Grievance Officer at {email} or {phone}. We will acknowledge your complaint within 48 hours and aim to resolve it within one month of receiving it.

## Governing law

These terms are governed by the laws of India. Any dispute will be subject to the jurisdiction of the competent courts in India, without affecting your right to approach a consumer commission.

## Changes to these terms

We may update these terms from time to time. The version on this page when you place an order applies to that order.
$md$, true, '2026-11-24'),
('post', 'henna-indigo-hair-dye-at-home', $md$How to use a henna and indigo hair dye at home$md$, $md$A step-by-step guide to the two-step henna and indigo method for brown to black hair, including the patch test and strand test you should always do first.$md$, $md$The {shopName} team$md$, $md$Henna on its own colours hair orange to copper-red. Indigo on its own gives a blue tone that does not hold well on grey or light hair. Used one after the other, the two plant powders give shades from warm brown to deep black. This two-step method takes some planning but is easy to do at home.

If you are using our Natural Hair Dye, follow the directions printed on its pack. They take precedence over the general guidance below.

## What you will need

- Henna powder and indigo powder. For shoulder-length hair, start with about 100 g of each; use less for short hair and more for long or thick hair.
- Two non-metal bowls, a spoon, warm water and, if you like, lemon juice.
- Gloves, an old towel, hair clips and a shower cap.
- Coconut oil or petroleum jelly for your hairline and ears.
- Time: about half a day for henna (including resting the paste) and two to three hours for indigo. Many people do the steps on separate days.

## Before you begin: the patch test

Plant powders can still cause allergic reactions. Do a patch test 48 hours before every full application, even if you have used henna before.

1. Mix a teaspoon of each powder with a little water.
2. Dab a small amount behind your ear or on the inside of your elbow and leave it on for about an hour, then rinse.
3. Watch the spot for 48 hours. If you notice itching, redness, swelling, a rash or burning, do not use the product. If you have a severe reaction, see a doctor.

Never use products sold as "black henna" for hair or skin. Pure henna is never black. "Black henna" is often mixed with chemical dyes such as PPD, which can cause serious reactions.

## Before you begin: the strand test

A strand test shows you the final colour before you commit. Snip a small lock from underneath (include some greys if you have them), run it through both steps below and wait two days for the colour to settle. This matters most if your hair has recently been chemically coloured, permed or straightened.

## Step one: henna

1. **Mix.** Add warm water to the henna a little at a time until you have a smooth paste, like thick yoghurt. A spoon of lemon juice is optional.
2. **Rest.** Cover and leave it at room temperature for four to eight hours, or overnight in a cool room, until the surface darkens slightly.
3. **Prepare.** Start with clean, slightly damp hair, free of oil and conditioner. Rub a little oil or petroleum jelly along your hairline and ears.
4. **Apply.** With gloves on, section your hair and apply the paste from roots to tips, starting at the back. Apply it thickly, especially on grey areas.
5. **Wait.** Cover your hair with a shower cap and leave it on for one to two hours.
6. **Rinse.** Rinse with plain water until it runs clear, without shampoo. Bright orange hair at this stage is normal.

## Step two: indigo

Apply indigo after the henna rinse, on the same day or the next. Unlike henna, it must be mixed just before use.

1. **Mix.** Add warm (not hot) water to the indigo to make a paste of the same consistency. Some people add a pinch of salt. Use the paste within 15 to 20 minutes, because indigo loses strength quickly once wet.
2. **Apply.** Apply it like the henna, starting where you need most coverage.
3. **Wait.** Leave it on for one to two hours: closer to one hour for brown, closer to two for black.
4. **Rinse.** Rinse with plain water only. Expect your hair to look greenish or uneven at first.

## The next three days

Indigo darkens over 24 to 72 hours as it reacts with air. Avoid shampoo for at least two days, then wash as usual. A mild wash powder is gentler on the colour than harsh shampoos.

If grey strands are still too light, repeat the indigo step after a few days. Greys often need two or three rounds the first time.

## Touch-ups and maintenance

- Touch up the roots every four to six weeks, using the same two steps on new growth only.
- Henna builds up over time, so you rarely need to redo the full length.
- Henna and indigo are hard to lighten later. Consider this if you expect to return to chemical colour.

## Safety reminders

- Always patch test, every time.
- Keep the paste away from your eyes. If it gets in them, rinse with plenty of clean water.
- Do not apply it over cuts, sores or irritated scalp.
- If you are pregnant, nursing or have a skin condition, ask your doctor first.
- Henna and indigo stain skin, nails, grout and fabric, so wipe up spills quickly.

Results depend on your starting shade, your hair type and your patience.
$md$, true, '2026-09-14'),
('post', 'moringa-curry-leaves-sathu-maavu-in-indian-kitchens', $md$Moringa, curry leaves and sathu maavu in everyday Indian cooking$md$, $md$Simple, practical ways to use moringa powder, curry leaves powder and ragi-based sathu maavu in everyday Indian meals, plus tips on portions and storage.$md$, $md$The {shopName} team$md$, $md$Long before "superfood" became a marketing word, Indian kitchens made good use of the drumstick tree in the backyard, the curry leaf plant by the door and a jar of home-roasted grain flour. Powdered versions make them easy to add to everyday cooking. Here are simple ideas for breakfast, lunch and tiffin.

These are foods, not medicines. Enjoy them as part of a varied diet.

## Moringa powder

Moringa (murungai keerai, drumstick leaves, sahjan) is a leafy green eaten across South India and beyond. The powder, made from dried leaves, tastes grassy and slightly bitter, like strong spinach.

**How much.** Start with half a teaspoon a day, added to food, and work up to a teaspoon once you are used to the taste.

**Ways to use it:**

- **In dal or sambar.** Stir half a teaspoon into each serving just before you take the pot off the heat. Long boiling dulls the colour and flavour.
- **In chapati or paratha dough.** Add one to two teaspoons to two cups of atta. The rotis turn a soft green, and children often don't notice.
- **On poriyal and thoran.** Sprinkle it over a dry vegetable stir-fry along with the grated coconut at the end.
- **In adai or dosa batter.** Mix a teaspoon into a bowl of batter for a green-flecked dosa.
- **In buttermilk.** Whisk a pinch into spiced buttermilk with salt, roasted cumin and ginger.

**Good to know.** Moringa can stain light-coloured cloth, so keep a separate spoon for it. If you are pregnant, nursing or taking regular medication, check with your doctor before having it daily.

## Curry leaves powder

Curry leaves are in almost every South Indian tadka, but most of us push them to the side of the plate. A powder lets you actually eat them. Some powders are plain dried leaves, others are roasted with dal, chillies and spices, so check your pack to see whether it is already seasoned.

**Ways to use it:**

- **Karuveppilai podi rice.** Mix one to two teaspoons into a bowl of hot rice with a spoon of ghee or sesame oil. Add salt if the powder is unseasoned. It makes a quick lunch with a papad and curd.
- **With idli and dosa.** Mix it with sesame oil as a side dish, or sprinkle it on a dosa just before folding.
- **In rasam and buttermilk.** Add half a teaspoon to rasam after tempering, or to chilled buttermilk on a hot afternoon.
- **On snacks.** Dust it over roasted makhana, peanuts or poha chivda along with a pinch of salt.

## Ragi and sathu maavu

Ragi (finger millet, nachni, kezhvaragu) has been a staple in Karnataka, Tamil Nadu and Maharashtra for generations. Sathu maavu, or health mix, is usually made by roasting and grinding ragi with other millets, grains, pulses and nuts. Recipes differ, so read your pack's label for its exact ingredients.

**Basic sathu maavu porridge (one serving)**

1. Mix two tablespoons of sathu maavu with a quarter cup of water until smooth, with no lumps.
2. Bring one cup of water or milk (or half and half) to a boil in a heavy pan.
3. Lower the heat and pour in the mix, stirring constantly.
4. Cook for five to seven minutes, stirring, until it thickens and no longer tastes raw.
5. **Sweet version:** add jaggery or palm sugar to taste and a pinch of cardamom. **Savoury version:** cook it in water, cool it slightly and stir in buttermilk, salt and chopped shallots, the way ragi koozh is eaten.

**Other ideas:**

- **Sathu maavu ladoo.** Roast the powder lightly in ghee, mix in powdered jaggery and chopped nuts, and shape into balls while warm.
- **Dosa and adai.** Add a few spoons to your batter for a more filling dosa.
- **Rotis.** Replace a quarter of the atta with sathu maavu.

**For little ones.** Thin sathu maavu porridge is a traditional weaning food in many homes. If you are introducing it to a baby, check with your paediatrician first. Introduce one new food at a time, and watch for any reaction to ingredients such as nuts.

## Storing powders well

Our nutrition powders are perishable, so store them carefully to keep them fresh:

- Move the powder into a clean, dry, airtight glass or steel container once the pack is opened.
- Always use a dry spoon. Even a drop of water can cause lumps and mould.
- Keep the container away from the stove and from sunlight. In humid months, the fridge is a good place for it.
- Use the powder before the date on the pack, and throw it away if it smells rancid or musty or shows any sign of insects.

## A simple week

Not sure where to start? Try moringa in your dal on Monday, curry leaves rice in Wednesday's lunchbox and sathu maavu porridge on Saturday. Small additions to food you already cook are easier to keep up than big changes.
$md$, true, '2026-06-18'),
('post', 'ubtan-and-bath-powders-for-children-and-adults', $md$Ubtan and herbal bath powders for children and adults$md$, $md$How to use gram flour, turmeric and herbal bath powders in place of soap for the whole family, with simple mixes and important safety notes for children.$md$, $md$The {shopName} team$md$, $md$Ubtan, a paste of flours, turmeric and herbs, is best known from the haldi ceremony before a wedding. But in many Indian homes a herbal bath powder, called nalangu maavu, snana podi or simply bath powder, was the everyday alternative to soap. Here is what goes into these powders and how to use them safely for adults and children.

## What goes into a bath powder

Recipes vary, but most use a few familiar ingredients:

- **Gram flour (besan) or green gram flour (moong, pasi payaru).** The gentle cleansing base. Green gram is often preferred for children and dry skin because it is a little milder.
- **Turmeric.** A small amount is traditional. Kasthuri manjal (wild turmeric) is often used for the face because it stains less than kitchen turmeric.
- **Fragrant herbs and flowers.** Rose petals, vetiver (khus), sandalwood, or dried orange peel for fragrance.
- **Other herbs.** Neem leaves, tulsi, fenugreek or aavarampoo, depending on family tradition.
- **Clays.** Some recipes include multani mitti for oily skin.

Our Bath Powder and Kids Bath Powder are ready-made blends. Check the ingredient list on each pack, especially if you have allergies.

## How adults can use a bath powder

**As a body wash.**

1. Take two to three tablespoons of powder in a small bowl.
2. Mix in water, rose water or milk to make a smooth paste, a little thinner than dosa batter.
3. Spread it over damp skin with gentle circular movements. Do not scrub hard.
4. Rinse off with lukewarm water.

**As a weekly ubtan for face and body.** Make a thicker paste with curd or milk, apply it, and leave it for five to ten minutes until it is just starting to dry. Then massage it off gently with wet fingers and rinse. Once or twice a week is plenty. For dry skin, add a few drops of oil to the mix.

Afterwards, pat dry and apply a light oil, such as coconut oil, or a moisturiser while your skin is still slightly damp.

## Bath powders for children

Keep these points in mind for children:

- **Use a mix made for children.** Children's blends are usually milder, with green gram as the base, less turmeric and no strong herbs or clays. Our Kids Bath Powder is made for this purpose.
- **Keep it soft.** Make a thin, smooth paste and spread it with your palm. Never scrub a child's skin.
- **Avoid the face and eyes.** Keep the paste away from the eyes, nose and mouth. On the face, use plain water or a very thin paste on the cheeks and forehead only.
- **Rinse well.** Pay attention to skin folds (neck, underarms, behind the knees and the nappy area) so no residue is left behind.
- **Babies.** A newborn's skin is delicate. Ask your paediatrician before using any bath powder on an infant, especially in the first months, and follow the age guidance on the pack.
- **Short and warm.** Use lukewarm water, keep baths brief and moisturise afterwards.

## Safety notes for everyone

- **Patch test first.** Apply a little paste to the inside of your elbow or your child's forearm, rinse after ten minutes and watch for 24 to 48 hours. Stop if there is redness, itching or a rash.
- **Know your allergies.** Anyone with a legume allergy should check for gram flour or green gram before use. Nut or fragrance sensitivities also matter.
- **Skip broken or irritated skin.** Do not use the powder on cuts, sunburn, active eczema flare-ups or rashes. If you or your child have a skin condition, ask a doctor first.
- **Turmeric stains.** Kitchen turmeric can leave a yellow tint on fair skin, nails, towels and bathroom grout. Rinse well and use old towels at first.
- **Mind the floor.** Paste makes bathroom tiles slippery, so rinse the floor afterwards.
- **Don't swallow it.** Keep the jar out of small children's reach.

## Storing your powder

- Keep the powder in a dry, airtight container, away from the steam of the bathroom, and always use a dry spoon.
- Mix only what you need each time. Wet paste spoils quickly and should not be saved for later.
- Throw away any powder that smells sour or musty or shows lumps or insects.

## Keeping expectations realistic

A herbal bath powder is a gentle, fragrant way to get clean, and many people find it leaves skin feeling softer than harsh soaps. It is not a treatment for acne, pigmentation or any skin disease, and results vary. For persistent skin problems, see a dermatologist.

## A simple family routine

- **Adults:** bath powder two or three times a week in place of soap, and a weekly ubtan with curd.
- **Children:** a children's bath powder a few times a week, and plain water on other days.
- **Everyone:** a light oil or moisturiser after bathing, especially in winter.

Start slowly, patch test every new blend and adjust the routine to suit your family.
$md$, true, '2026-10-20'),
('post', 'weekly-natural-hair-care-routine', $md$A simple weekly natural hair-care routine with oil, hair pack and wash powder$md$, $md$How to fit hair oil, a hair pack and a herbal hair wash powder into an easy weekly routine, and how to adjust it for oily, dry or curly hair.$md$, $md$The {shopName} team$md$, $md$Many of us grew up with Sunday oil baths: warm oil massaged in by a parent or grandparent, then washed out with a herbal powder. That routine still works today. Here is a simple plan built around a hair oil, a hair pack and a hair wash powder.

## The three steps and what each one does

- **Hair oil** softens dry ends, makes combing easier and gives you a reason to massage your scalp. Plain coconut oil is the traditional choice; herbal oils, such as our Hair Growth Oil, are infused with herbs.
- **A hair pack** is a paste of powdered herbs left on for a short time before washing, so hair feels softer and more manageable. Our Hair Conditioning Pack works this way.
- **A hair wash powder** cleans your hair and scalp without synthetic foaming agents. Traditional wash powders are based on ingredients like shikakai, reetha (soapnut) and hibiscus. Our Hair Wash Powder is meant to be used in place of shampoo.

## The basic weekly plan

This plan suits most people who wash their hair two or three times a week.

**Day 1 (evening): oil.** Warm two to three tablespoons of oil by standing the bottle in a bowl of hot water for a few minutes. Never heat it over a flame. Part your hair and massage a little oil into your scalp with your fingertips for five to ten minutes, then spread the rest along the lengths. Leave it on for at least an hour, or overnight with an old towel over your pillow.

**Day 2 (morning): wash.** Mix two to three tablespoons of wash powder with warm water into a thin paste. Wet your hair well, apply the paste to your scalp and massage gently, then work it down the lengths. Leave it for two or three minutes and rinse thoroughly. Herbal powders do not lather like shampoo, and that is fine; the cleaning comes from the massage and the rinse. If your hair still feels oily, repeat the wash once.

**Day 4 or 5: hair pack and wash.** Mix three to four tablespoons of hair pack with water, aloe vera gel or a little curd into a smooth paste. Apply it to damp, clean hair from roots to tips. Cover with a shower cap and leave it for 20 to 30 minutes. Don't let it dry hard. Rinse well, then do a light wash with wash powder if needed.

**Other days:** rinse with water or rest your hair. There is no need to wash daily.

## Adjusting for your hair type

**Oily scalp.** Keep oil to the lengths and ends, or oil for just an hour before washing rather than overnight. You may prefer to wash three times a week.

**Dry or frizzy hair.** Put a few drops of oil on damp ends after washing, use a little less wash powder, and don't skip the hair pack.

**Curly or coily hair.** Detangle with your fingers or a wide-tooth comb while the oil or pack is in, never on dry hair. Rinse wash powder out very thoroughly, because leftover particles can cling to curls.

**Fine or thin hair.** Use small amounts of oil so your hair isn't weighed down, and wash it out well.

**Colour-treated or henna-dyed hair.** Herbal wash powders are gentle, but wait at least two days after henna or indigo before washing.

## Getting the mixes right

- Mix wash powder fresh each time, in a non-metal bowl. Leftover wet paste spoils quickly.
- Sieve the powder or mix it well to avoid lumps that are hard to rinse out.
- Use lukewarm water. Very hot water dries out your scalp.
- Keep the paste away from your eyes. If any gets in, rinse with plenty of clean water.
- Always use a dry spoon and close the pack tightly so moisture doesn't get in.

## What to expect

The first few washes with a herbal powder can feel different, especially after shampoo and silicone conditioners; hair may feel less slippery at first. Most people settle in within a few weeks. A relaxed, regular habit works better than an occasional marathon session.

Be realistic, too. Oils and herbal packs help with how your hair looks and feels, but they are not a treatment for hair loss. For sudden or patchy hair fall, or a painful or scaly scalp, see a doctor or dermatologist.

## Before you start

Do a patch test with any new oil, pack or powder. Apply a little to the inside of your elbow or behind your ear and wait 24 to 48 hours. Stop using any product that causes itching, redness or burning.

## A sample week at a glance

| Day            | What to do                   |
| -------------- | ---------------------------- |
| Sunday evening | Oil massage                  |
| Monday morning | Wash with hair wash powder   |
| Thursday       | Hair pack, then a light wash |
| Other days     | Rinse with water or rest     |

Adjust the days to suit your week.
$md$, true, '2026-07-22')
ON CONFLICT (kind, slug) DO NOTHING;
--> statement-breakpoint
-- The pages are rendered once per catalogue version (server/pages/pages.ts): a change is announced on the
-- catalogue's channel (migration 0010's function), so every instance forgets what it held when it commits.
CREATE TRIGGER content_pages_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_pages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
