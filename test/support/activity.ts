/** reporters lists the components whose activity the API server holds (GET …/activity). */
import { ACTIVITY_PATH } from '../../controllers/runtime/activity-reporter.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';

export async function reporters(client: KubeClient): Promise<string[]> {
  const list = (await client.raw({ method: 'GET', path: ACTIVITY_PATH })) as { items: Array<{ component: string }> };
  return list.items.map((item) => item.component);
}
