import type { CatalogOf } from '../catalog-shape';
import type en from '../en/doctor';

export default {} as const satisfies CatalogOf<typeof en>;
