/** A phone as the public calls answer it, for the catalog's component tests (never imported by the app). */
import type { Product } from '@shared/entities';

/** The `n`th phone for sale (its id, model name and price follow `n`), with `overrides`. */
export const publicPhone = (n: number, overrides: Partial<Product> = {}): Product => ({
  _id: `7b0a3c1e-0000-4000-8000-${String(n).padStart(12, '0')}`,
  modelName: `iPhone 13 #${n}`,
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  originalPrice: 799,
  resellPrice: 400 + n,
  location: 'Austin, TX',
  description: 'A well kept phone.',
  timeOfPost: '2026-11-02T09:30:00.000Z',
  timeUsed: 10,
  condition: 'Good',
  sellerName: 'Maya Chen',
  categoryId: '01',
  userStatus: 'verified',
  status: 'available',
  sellerRating: { average: null, count: 0 },
  sellerId: '7b0a3c1e-0000-4000-8000-0000000000aa',
  photos: ['/images/0123456789abcdef0123456789abcdef-640.webp'],
  specificatons: { ram: '4 GB', storage: '128 GB', color: 'Blue', battery: 3200 },
  batteryHealth: null,
  imeiChecked: false,
  previousPrice: null,
  priceNote: null,
  ...overrides,
});
