// Package client is a Go SDK for the Agent Execution Service: agents, runs
// (blocking, polled, or streamed as Server-Sent Events), the
// chat-completions-compatible endpoint, files, memories and collections,
// resources and webhooks. Every method takes a context first, a params
// struct where the endpoint has parameters, and last any [Option] that
// overrides the client's settings for that call only.
//
// Errors: every non-2xx answer is an [*APIError] ([IsAuth], [IsNotFound],
// [IsValidation], [IsRateLimited]); a failure to reach the service is a
// [*NetworkError] ([IsOffline]). No error message contains the API key, a
// request header, or a full URL with its query.
//
// Retries: requests safe to repeat (GET, and PUT/PATCH with the same body)
// are retried on connection errors and on 408, 409, 429 and 5xx, with
// exponential backoff that honours Retry-After. Executions, uploads and
// creations are never repeated silently: they cost credits or make records.
//
// Credentials: the API key and workspace header go only to the base URL's
// origin (scheme, host and port). Pagination never follows a next_page_url,
// and [Client.Download] attaches the key only on the base origin.
//
// Where the service description says "not shown", the package makes a
// documented choice (search the source for "Assumption:"): polling is GET
// /agent-responses/{id}, else GET /agents/{id}/responses/{responseId};
// uploads are POST /files as multipart/form-data with the field "file"; the
// memory endpoints come in two variants (A: PATCH and field "memory"; B: PUT
// and field "content"), detected per client ([Client.MemoryVariant]); the
// webhook list comes in two shapes, detected from the answer.
package client
