// The "synthetic" badge: a block the master made up itself (finalization, §7.8.1), not the agent.
import { t } from '../i18n';

export function SyntheticBadge({ show }: { show: boolean }) {
  return show ? (
    <span class="badge synthetic" title={t('block.syntheticTitle')}>
      {t('block.synthetic')}
    </span>
  ) : null;
}
