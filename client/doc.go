// Package client is a Go SDK for the Agent Execution Service: agents, runs
// (blocking, polled or streamed), chat completions, files, memories,
// collections, resources and webhooks. Methods take a context, a params
// struct where needed, and last any [Option] for that call only.
//
// Non-2xx answers are [*APIError]; failures to reach the service are
// [*NetworkError]. No error contains the API key, a header or a full URL.
// Only requests safe to repeat are retried; executions, uploads and
// creations never are. Credentials go only to the base URL's origin.
// Where the service says "not shown", the choice is marked "Assumption:".
package client
