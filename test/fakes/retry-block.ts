/** The fixture block the guides use as their example: a ticket tool that times out once, then answers. */
export const retryBlock = {
  scope: { testId: "tickets › retry on timeout" },
  tools: [
    {
      name: "create_ticket",
      calls: [
        { id: "first-try", args: { title: "Refund" }, error: "upstream timeout" },
        { id: "retry", args: { title: "Refund" }, result: "TICKET-42" },
      ],
    },
  ],
};
