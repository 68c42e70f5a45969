import packageJson from '../../package.json';

export const appName = 'Agentic Mobile Control';
export const appVersion: string = packageJson.version;
