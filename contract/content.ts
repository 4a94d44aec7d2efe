// Content as the backend answers it: pages, services, the home page.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).

import type { CategoryNode, ProductSummary } from "./catalogue";

export interface PageSummary {
  slug: string;
  title: string;
  excerpt: string;
}

export interface ContentPage extends PageSummary {
  body: string;
  updated_at: string;
}

export interface Service {
  id: number;
  slug: string;
  name: string;
  summary: string;
  icon: string;
  price_from: number;
  currency: string;
}

export interface ServiceDetails extends Service {
  description: string;
  features: string[];
}

export interface Banner {
  id: number;
  title: string;
  subtitle: string;
  cta_label: string;
  link: string;
  image: string;
}

export interface HomeData {
  banners: Banner[];
  categories: CategoryNode[];
  featured: ProductSummary[];
  new_arrivals: ProductSummary[];
  services: Service[];
}
