package welcome

import (
	"errors"
	"sync"
)

// memKeyring is a system keyring that keeps keys in memory.
type memKeyring struct {
	mu   sync.Mutex
	keys map[string]string
}

func (k *memKeyring) Set(service, user, password string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[service+"/"+user] = password
	return nil
}

func (k *memKeyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.keys[service+"/"+user]
	if !ok {
		return "", errors.New("secret not found in keyring")
	}
	return v, nil
}

func (k *memKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.keys, service+"/"+user)
	return nil
}
