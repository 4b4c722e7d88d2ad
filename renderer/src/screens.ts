import type { ComponentType } from 'react';
import { ApiKeysScreen } from './screens/ApiKeysScreen.tsx';
import { BundlesScreen } from './screens/BundlesScreen.tsx';
import { ChatScreen } from './screens/ChatScreen.tsx';
import { DpaScreen } from './screens/dpa/DpaScreen.tsx';
import { EvidenceScreen } from './screens/EvidenceScreen.tsx';
import { FrameworksScreen } from './screens/FrameworksScreen.tsx';
import { OverviewScreen } from './screens/OverviewScreen.tsx';
import { IdentitySettingsScreen } from './screens/identity-settings/IdentitySettingsScreen.tsx';
import { ScanScreen } from './screens/ScanScreen.tsx';
import { SettingsScreen } from './screens/SettingsScreen.tsx';
import { SsoSessionsScreen } from './screens/SsoSessionsScreen.tsx';
import { StatusScreen } from './screens/StatusScreen.tsx';
import { UsersScreen } from './screens/users/UsersScreen.tsx';
import { VerifyScreen } from './screens/VerifyScreen.tsx';

export type ScreenEntry = { readonly id: string; readonly title: string; readonly group: string; readonly component: ComponentType };

/** Every screen, in navigation order; the id is its hash route (`#/scan`). */
export const screens: readonly ScreenEntry[] = [
  { id: 'overview', title: 'Overview', group: 'Posture', component: OverviewScreen },
  { id: 'scan', title: 'Scan', group: 'Privacy', component: ScanScreen },
  { id: 'dpa', title: 'DPA', group: 'Privacy', component: DpaScreen },
  { id: 'evidence', title: 'Evidence', group: 'Evidence', component: EvidenceScreen },
  { id: 'bundles', title: 'Bundles', group: 'Evidence', component: BundlesScreen },
  { id: 'verify', title: 'Verify', group: 'Evidence', component: VerifyScreen },
  { id: 'frameworks', title: 'Frameworks', group: 'Evidence', component: FrameworksScreen },
  { id: 'users', title: 'Users & Groups', group: 'Identity', component: UsersScreen },
  { id: 'sessions', title: 'SSO Sessions', group: 'Identity', component: SsoSessionsScreen },
  { id: 'keys', title: 'API Keys', group: 'Identity', component: ApiKeysScreen },
  { id: 'identity', title: 'Identity Settings', group: 'Identity', component: IdentitySettingsScreen },
  { id: 'chat', title: 'Chat', group: 'Tools', component: ChatScreen },
  { id: 'status', title: 'Status', group: 'Tools', component: StatusScreen },
  { id: 'settings', title: 'Settings', group: 'Tools', component: SettingsScreen },
];
