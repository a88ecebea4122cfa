/**
 * Which provider products this service sells: declared here, where checkouts start, and answered
 * by plans (a product is on sale while an active plan is sold as it).
 */
export interface ProductCatalogue {
  isOnSale(productId: string): Promise<boolean>;
}
