// Package client is a Go SDK for the Agent Execution Service: list and read
// agents, run them (blocking, by polling, or as a stream of Server-Sent
// Events), use the chat-completions-compatible endpoint, link and upload
// files, keep memories and memory collections, and list resources and
// webhooks.
//
// # Getting started
//
//	c := client.New(
//		client.WithBaseURL("https://aes.example.com/api"),
//		client.WithAPIKey(os.Getenv("AES_API_KEY")),
//		client.WithWorkspace("42"),
//	)
//	for agent, err := range c.Agents(ctx, client.ListAgentsParams{Type: client.AgentChat}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(agent.ID, agent.Title)
//	}
//
// Every method takes a context first, a params struct where the endpoint has
// parameters, and, last, any [Option] to override the client's settings for
// that call only (for example [WithWorkspace] or [WithMaxRetries]).
//
// # Running an agent
//
// [Client.Run] blocks until the execution finishes. The service waits at most
// 100 seconds; when a run outlives that, Run keeps polling by itself
// ([Client.Wait]) until the record is terminal or the context ends.
// [Client.Start] returns at once with the record in status "starting";
// [Client.Poll] reads it once. [Client.Stream] returns a [Stream] of execution
// records whose outputs are text fragments:
//
//	s, err := c.Stream(ctx, agentID, client.ExecuteParams{
//		Answers:  map[string]any{"model": model, "temperature": "0.5", "tools": "no-tools"},
//		Messages: []client.Message{{Role: client.RoleUser, Content: "Hello"}},
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	for s.Next() {
//		fmt.Print(s.Fragment())
//	}
//	if err := s.Err(); err != nil {
//		// s.Text() still holds everything received before the failure.
//	}
//
// # Errors
//
// Every non-2xx answer is an [*APIError] (use errors.As, or the helpers
// [IsAuth], [IsNotFound], [IsValidation], [IsRateLimited]). A failure to reach
// the service at all is a [*NetworkError] ([IsOffline]). No error message ever
// contains the API key, a request header, or a full URL with its query.
//
// # Retries
//
// Requests that are safe to repeat (GET, and PUT/PATCH with the same body) are
// retried on connection errors and on 408, 409, 429 and 5xx, with exponential
// backoff (0.5 s × 2ⁿ, capped at 8 s, with jitter) that honours Retry-After.
// Executions, uploads and memory creation are never repeated silently: they
// cost credits or create records.
//
// # Credentials
//
// The API key and the workspace header are sent only to the origin (scheme,
// host and port) of the base URL. Pagination never follows a next_page_url:
// the next page is requested from the base URL with the caller's parameters.
// [Client.Download] fetches output files (images, videos) and attaches the
// key only when the file lives on the base URL's origin.
//
// # Gaps in the service description
//
// Where the service description says "not shown", the package makes a
// documented choice; search the source for "Assumption:". The main ones:
// polling is GET /agent-responses/{id}, else GET
// /agents/{id}/responses/{responseId}; uploads are POST /files
// as multipart/form-data with the field "file"; the memory endpoints come in
// two variants (A: PATCH and field "memory"; B: PUT and field "content"),
// detected per client and exposed by [Client.MemoryVariant]; the webhook list
// comes in two shapes, detected from the response.
package client
