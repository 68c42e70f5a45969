import type { CatalogOf } from '../catalog-shape';
import type en from '../en/mcp';

export default {} as const satisfies CatalogOf<typeof en>;
