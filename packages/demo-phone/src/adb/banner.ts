import type { PhoneIdentity } from '../phone-contract';

/**
 * Features this device really implements. `shell_v2` switches the adb CLI to the shell protocol (exit codes),
 * `stat_v2` to STA2/LST2, and `fixed_push_mkdir` tells it SEND creates missing parent directories itself.
 */
export const DEVICE_FEATURES = ['shell_v2', 'stat_v2', 'fixed_push_mkdir'] as const;

/** Banner values may not contain the separators of the banner itself. */
function bannerValue(value: string): string {
  return value.replace(/[:;=]/g, '_');
}

/** `device::ro.product.name=..;ro.product.model=..;ro.product.device=..;features=..` */
export function deviceBanner(identity: PhoneIdentity, features: readonly string[] = DEVICE_FEATURES): string {
  const properties = [
    `ro.product.name=${bannerValue(identity.name)}`,
    `ro.product.model=${bannerValue(identity.model)}`,
    `ro.product.device=${bannerValue(identity.device)}`,
    `features=${features.join(',')}`,
  ];
  return `device::${properties.join(';')}`;
}
