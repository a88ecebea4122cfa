/**
 * Preloaded into each benchmark server child (`--import`): answers the runner's `cpu-usage`
 * message with this process's `process.cpuUsage()`, so the runner can charge each server the CPU
 * it spent inside a measured window. The IPC channel is unref'd: it never keeps a server alive.
 */
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage() });
});
process.channel?.unref();
