import type { CatalogOf } from '../catalog-shape';
import type en from '../en/report';

export default {} as const satisfies CatalogOf<typeof en>;
