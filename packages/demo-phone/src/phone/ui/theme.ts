/** Material 3 baseline colours, light and dark (the Dark theme switch in Settings flips them). */
export interface Theme {
  dark: boolean;
  background: string;
  surfaceContainer: string;
  surfaceHigh: string;
  onSurface: string;
  onSurfaceVariant: string;
  primary: string;
  onPrimary: string;
  primaryContainer: string;
  onPrimaryContainer: string;
  outline: string;
  divider: string;
  disabled: string;
  switchTrackOff: string;
  systemBar: string;
  onSystemBar: string;
  keyboard: string;
  key: string;
  wallpaperTop: string;
  wallpaperBottom: string;
}

export const LIGHT_THEME: Theme = {
  dark: false,
  background: '#FEF7FF',
  surfaceContainer: '#F3EDF7',
  surfaceHigh: '#ECE6F0',
  onSurface: '#1D1B20',
  onSurfaceVariant: '#49454F',
  primary: '#6750A4',
  onPrimary: '#FFFFFF',
  primaryContainer: '#EADDFF',
  onPrimaryContainer: '#21005D',
  outline: '#79747E',
  divider: '#CAC4D0',
  disabled: '#A8A4AC',
  switchTrackOff: '#E6E0E9',
  systemBar: '#F3EDF7',
  onSystemBar: '#1D1B20',
  keyboard: '#E8EAED',
  key: '#FFFFFF',
  wallpaperTop: '#3F5AA6',
  wallpaperBottom: '#8EC5E8',
};

export const DARK_THEME: Theme = {
  dark: true,
  background: '#141218',
  surfaceContainer: '#211F26',
  surfaceHigh: '#2B2930',
  onSurface: '#E6E0E9',
  onSurfaceVariant: '#CAC4D0',
  primary: '#D0BCFF',
  onPrimary: '#381E72',
  primaryContainer: '#4F378B',
  onPrimaryContainer: '#EADDFF',
  outline: '#938F99',
  divider: '#49454F',
  disabled: '#625F66',
  switchTrackOff: '#36343B',
  systemBar: '#141218',
  onSystemBar: '#E6E0E9',
  keyboard: '#202124',
  key: '#3C4043',
  wallpaperTop: '#1B2745',
  wallpaperBottom: '#2F4F6B',
};

export const themeFor = (darkTheme: boolean): Theme => (darkTheme ? DARK_THEME : LIGHT_THEME);
