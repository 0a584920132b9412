package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"comptoir/cafe"
	"comptoir/strictyaml"
)

// ServerOpts configure the hub's embedded NATS server.
type ServerOpts struct {
	// Dir is the JetStream file store's folder.
	Dir string
	// Host and Port are where tables connect; Port -1 picks a free port.
	Host string
	Port int
	// Tables are the tables' credentials: name to password. Each table may
	// publish only under its own name.
	Tables map[string]string
	// HubPassword is the hub's own password (user "hub").
	HubPassword string
	// MaxMemory and MaxStore bound JetStream's memory and disk; the
	// defaults suit a Raspberry Pi.
	MaxMemory, MaxStore int64
	// LeafRemotes are the central cluster's leaf node URLs this café's
	// server joins as a leaf node (a chain of cafés); empty: none.
	LeafRemotes []string
	// LeafPort, when not 0, accepts leaf node connections (the central
	// side); -1 picks a free port.
	LeafPort int
	// Name is the server's name (unique in a chain of cafés).
	Name string
	// Domain is the server's JetStream domain: in a chain of cafés each
	// café's server has its own (its name, say) and the centre another,
	// so each keeps its streams to itself.
	Domain string
}

// Limits for a Pi.
const (
	DefaultMaxMemory = 64 << 20
	DefaultMaxStore  = 1 << 30
)

// HubUser is the hub's user name on its server.
const HubUser = "hub"

// TablePermissions are table's NATS permissions: publish its steps and
// its presence, receive its acknowledgements and the floor's answers.
func TablePermissions(table string) *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: []string{cafe.StepSubject(table), cafe.PresenceSubject(table)}},
		Subscribe: &server.SubjectPermission{Allow: []string{cafe.InboxPrefix(table) + ".>", cafe.AnswerSubject(table)}},
	}
}

// StartServer starts the embedded NATS server with JetStream and waits
// until it takes connections.
func StartServer(o ServerOpts) (*server.Server, error) {
	if o.MaxMemory == 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.MaxStore == 0 {
		o.MaxStore = DefaultMaxStore
	}
	if o.Host == "" {
		o.Host = "0.0.0.0"
	}
	users := []*server.User{{Username: HubUser, Password: o.HubPassword}}
	for name, pw := range o.Tables {
		if err := cafe.CheckName(name); err != nil {
			return nil, err
		}
		users = append(users, &server.User{Username: name, Password: pw, Permissions: TablePermissions(name)})
	}
	opts := &server.Options{
		ServerName:         o.Name,
		Host:               o.Host,
		Port:               o.Port,
		JetStream:          true,
		StoreDir:           o.Dir,
		JetStreamMaxMemory: o.MaxMemory,
		JetStreamMaxStore:  o.MaxStore,
		Users:              users,
		NoSigs:             true,
		MaxPayload:         cafe.MaxMessage * 2,
		JetStreamDomain:    o.Domain,
	}
	if o.LeafPort != 0 {
		opts.LeafNode.Host, opts.LeafNode.Port = o.Host, o.LeafPort
	}
	for _, r := range o.LeafRemotes {
		u, err := url.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("hub: leaf remote %q: %w", r, err)
		}
		opts.LeafNode.Remotes = append(opts.LeafNode.Remotes, &server.RemoteLeafOpts{URLs: []*url.URL{u}})
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("hub: NATS server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, errors.New("hub: the NATS server did not start within 10s (is the port taken?)")
	}
	return s, nil
}

// Connect connects the hub to its server.
func Connect(url, user, password string, logf func(string, ...any)) (*nats.Conn, error) {
	return nats.Connect(url,
		nats.Name("comptoir hub"),
		nats.UserInfo(user, password),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logf("hub: NATS disconnected: %v", err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { logf("hub: NATS reconnected") }),
	)
}

// StreamConfig is the steps' stream: on disk, deduplicated on Nats-Msg-Id
// for DedupWindow, kept for MaxAge or MaxBytes.
func StreamConfig(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:       cafe.Stream,
		Subjects:   []string{cafe.StepSubjects},
		Storage:    jetstream.FileStorage,
		Duplicates: DedupWindow,
		MaxAge:     30 * 24 * time.Hour,
		MaxBytes:   512 << 20,
		MaxMsgSize: cafe.MaxMessage * 2,
		Replicas:   replicas,
	}
}

// DedupWindow is how long the stream remembers a message's id.
const DedupWindow = 10 * time.Minute

// Ensure creates or updates the stream and the presence bucket.
func Ensure(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	if _, err := js.CreateOrUpdateStream(ctx, StreamConfig(1)); err != nil {
		return nil, fmt.Errorf("hub: stream %s: %w", cafe.Stream, err)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: cafe.PresenceBucket, History: 1, TTL: PresenceTTL, Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("hub: bucket %s: %w", cafe.PresenceBucket, err)
	}
	return kv, nil
}

// PresenceTTL is how long a table's presence is kept without a refresh.
const PresenceTTL = time.Minute

// Credentials is the hub's table of credentials, read from a file:
//
//	version: 1
//	tables:
//	  table-1: "a long random password"
//	  table-2: "another"
type Credentials struct {
	Hub    string
	Tables map[string]string
}

// LoadCredentials reads the tables' credentials, and the hub's own
// password from hub.secret beside the state, made at first start.
func LoadCredentials(file, stateDir string) (*Credentials, error) {
	c := &Credentials{Tables: map[string]string{}}
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("hub: tables: %w", err)
		}
		f := strictyaml.File{Name: filepath.Base(file)}
		root, err := f.Parse(data)
		if err != nil {
			return nil, err
		}
		m, err := f.Fields(root, "the tables' credentials", []string{"version", "tables"}, nil)
		if err != nil {
			return nil, err
		}
		if err := f.Version(m, 1); err != nil {
			return nil, err
		}
		pairs, err := f.StringMap(m["tables"], "tables")
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			if err := cafe.CheckName(kv[0]); err != nil {
				return nil, fmt.Errorf("%s: tables: %w", file, err)
			}
			if len(kv[1]) < 12 {
				return nil, fmt.Errorf("%s: tables.%s: a password of at least 12 characters, please (comptoir-hub add-table %s makes one)", file, kv[0], kv[0])
			}
			c.Tables[kv[0]] = kv[1]
		}
	}
	secret := filepath.Join(stateDir, "hub.secret")
	data, err := os.ReadFile(secret)
	switch {
	case errors.Is(err, os.ErrNotExist):
		pw := NewPassword()
		if err := os.WriteFile(secret, []byte(pw+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("hub: %w", err)
		}
		c.Hub = pw
	case err != nil:
		return nil, fmt.Errorf("hub: %w", err)
	default:
		c.Hub = strings.TrimSpace(string(data))
	}
	return c, nil
}

// NewPassword is a random password for a table or the hub.
func NewPassword() string {
	b := make([]byte, 18)
	rand.Read(b)
	return hex.EncodeToString(b)
}
