import type { CatalogOf } from '../catalog-shape';
import type en from '../en/cli';

export default {} as const satisfies CatalogOf<typeof en>;
