// Package contract holds the Agent Execution Service interface as Agent Desk
// understands it, written down as an OpenAPI 3.0 document (openapi.yaml), and
// checks HTTP traffic against it.
//
// The document follows the service's interface description; where that text says
// "not shown", the project's decision is filled in and marked with x-assumption.
// It describes both readings of the interface, the one first described and the
// deployed service's (real-service.md): either may be on the other end, so both
// are within the contract; operations of one reading only carry x-reading.
// Two kinds of tests use this package: the built-in service's tests wrap it in
// [Validator.Handler] so every answer it gives is checked, and the client SDK's tests
// wrap their transport in [Validator.Transport] so every request the client sends is
// checked. Both sides are held to the same document, so they cannot drift apart
// without a test noticing.
package contract

import (
	"context"
	_ "embed"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi.yaml
var documentYAML []byte

var loadDocument = sync.OnceValues(parseDocument)

// Document returns the parsed and validated interface document. It is loaded once
// and shared: callers must not change it.
func Document() (*openapi3.T, error) {
	return loadDocument()
}

// parseDocument loads a fresh copy of the document, so a validator can adjust its
// own copy without touching the shared one.
func parseDocument() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(documentYAML)
	if err != nil {
		return nil, fmt.Errorf("contract: loading openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("contract: openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	return doc, nil
}
