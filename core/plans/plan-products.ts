import type { ProductCatalogue } from '../billing/product-catalogue.port';
import type { PlanRepository } from './plan-repository.port';

/** The products on sale are those of the active plans: a retired plan keeps its subscribers but sells no more. */
export class PlanProducts implements ProductCatalogue {
  constructor(private readonly plans: Pick<PlanRepository, 'findByStripeProduct'>) {}

  async isOnSale(productId: string): Promise<boolean> {
    return (await this.plans.findByStripeProduct(productId))?.isActive === true;
  }
}
