/**
 * Zod schemas for every entity of spec section 3, as the API carries them.
 * Field names are the spec's, typos included (`specificatons`); ids travel as `_id`.
 */
import { z } from 'zod';
import {
  CATEGORY_CODES,
  CONDITION_OPTIONS,
  ORDER_STATUS,
  PRODUCT_STATUS,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
  USER_TYPES,
} from './constants';

export const idSchema = z.uuid({ error: 'id must be a valid id' });
export const categoryCodeSchema = z.enum(CATEGORY_CODES, {
  error: 'must be one of 01, 02, 03, 04, 05',
});
/** A dollar amount as the API answers it: a JSON number with at most two decimals. */
export const dollarsSchema = z.number().nonnegative();
/** Instants travel as ISO 8601 strings; the client formats them (medium date). */
export const instantSchema = z.string();

export const specificationsSchema = z.object({
  ram: z.enum(RAM_OPTIONS),
  storage: z.enum(STORAGE_OPTIONS),
  color: z.string(),
  battery: z.number().int().positive(),
});

export const productSchema = z.object({
  _id: idSchema,
  modelName: z.string(),
  image: z.string(),
  originalPrice: dollarsSchema,
  resellPrice: dollarsSchema,
  location: z.string(),
  description: z.string(),
  timeOfPost: instantSchema,
  timeUsed: z.number().int().nonnegative(),
  condition: z.enum(CONDITION_OPTIONS),
  sellerName: z.string(),
  sellerNumber: z.string(),
  email: z.string(),
  categoryId: categoryCodeSchema,
  userStatus: z.string().nullable(),
  status: z.enum([PRODUCT_STATUS.sold, PRODUCT_STATUS.available]),
  specificatons: specificationsSchema,
});
export type Product = z.infer<typeof productSchema>;

export const advertisedItemSchema = z.object({
  _id: idSchema,
  modelName: z.string(),
  image: z.string(),
  price: dollarsSchema,
  feature: specificationsSchema,
  advertiseId: idSchema,
  location: z.string(),
  timeUsed: z.number().int().nonnegative(),
  email: z.string(),
  categoryId: categoryCodeSchema,
});
export type AdvertisedItem = z.infer<typeof advertisedItemSchema>;

export const categorySchema = z.object({
  _id: idSchema,
  name: z.string(),
  categoryId: categoryCodeSchema,
});
export type Category = z.infer<typeof categorySchema>;

export const wishListItemSchema = z.object({
  _id: idSchema,
  productId: idSchema,
  productName: z.string(),
  image: z.string(),
  price: dollarsSchema,
  email: z.string(),
  categoryId: categoryCodeSchema,
});
export type WishListItem = z.infer<typeof wishListItemSchema>;

export const orderSchema = z.object({
  _id: idSchema,
  userName: z.string(),
  productName: z.string(),
  price: dollarsSchema,
  email: z.string(),
  location: z.string(),
  number: z.string(),
  productId: idSchema,
  image: z.string(),
  status: z.enum([ORDER_STATUS.paid, ORDER_STATUS.unpaid]),
});
export type Order = z.infer<typeof orderSchema>;

export const paymentRecordSchema = z.object({
  transactionId: z.string(),
  email: z.string(),
  price: dollarsSchema,
  orderId: idSchema,
  productName: z.string(),
  productId: idSchema,
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const userTypeSchema = z.enum(USER_TYPES);
export const userSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  type: userTypeSchema,
  userStatus: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/**
 * An address that may not have an account (not in the spec): set when the admin deletes or bans
 * an account, until the admin lifts it.
 */
export const bannedAddressSchema = z.object({
  email: z.string(),
  reason: z.enum(['deleted', 'banned']),
  bannedAt: instantSchema,
});
export type BannedAddress = z.infer<typeof bannedAddressSchema>;

export const blogItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
});
export type BlogItem = z.infer<typeof blogItemSchema>;

export const identityUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
});
export type IdentityUser = z.infer<typeof identityUserSchema>;
