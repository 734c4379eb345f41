/** What the device feature offers the others; everything else in this folder is its own. */
export { decidePoll } from './device-rules.js';
export type { DeviceCodeRepo } from './repository.js';
