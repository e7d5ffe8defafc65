/**
 * The Node.js flags the service is started with (`npm start`, the topology's instances, the
 * benchmark); package.json's start script spells them out, and a test holds the two together.
 *
 * The young generation's largest semi-space, in MB, as Node.js 20 and 22 size it. Node.js 24
 * sizes it from the machine's memory (64 MB on 24 GB: a 128 MB new space, 61 MB on Node.js 26),
 * and the whole list at 100,000 articles peaked at 301 MB RSS against 152 MB on Node.js 20, the
 * same build. It can only be set as the process starts (v8.setFlagsFromString comes too late).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
