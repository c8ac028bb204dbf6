// The TUI tests draw on a fake terminal in this process, and Ink reads CI / CONTINUOUS_INTEGRATION once, when it
// first loads (then it draws nothing until it exits). A CI runner sets them; agent-collab hides them while it loads
// Ink (src/ui/load-ui.ts), but a test file that imports Ink itself would load it with them set, for every later file
// in the same worker. So they are not set in the integration tier.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
