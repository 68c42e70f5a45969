/**
 * The MCP server's own messages: what it asks the person (through the agent's client) and the errors it answers
 * the agent with. Tool names, descriptions and schemas are the agent's interface and stay English.
 */
export default {
  allowOnPhone: 'Allow this action on the phone? {{question}}',
  question: '{{action}}: {{reasons}}',
  questionOn: '{{action}} on {{target}}: {{reasons}}',
  cannotAsk:
    "Not done: {{question}}. Settings ask for a person's yes before it, and this MCP client cannot ask its person (no elicitation support). Let the person do it on the phone, or change Settings → Confirm actions.",
  notAllowed: 'Not done, the person did not say yes to {{question}}.',
  takenBack: 'Not done: the person took phone {{serial}} back (Stop in the app). Your next action takes it again if nobody else drives it.',
  unreadable: 'The screen could not be read: {{reason}}',
  unknownReason: 'unknown reason',
  noScreenshot: 'No screenshot: unknown reason',
  toolFailed: '{{tool}} failed',
} as const;
