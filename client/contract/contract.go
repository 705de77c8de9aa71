// Package contract holds the service's interface as an OpenAPI 3.0 document
// (openapi.yaml) covering both readings (spec and real; one-reading
// operations carry x-reading, filled gaps x-assumption), and checks traffic
// against it: the built-in service's answers through [Validator.Handler],
// the client's requests through [Validator.Transport].
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

// Document returns the parsed, validated document, loaded once and shared: do not change it.
var Document = sync.OnceValues(parseDocument)

// parseDocument loads a fresh copy of the document.
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
