package app

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"

	"github.com/otd-project/otd/tournament"
)

// ConsoleCertificate returns the self-signed TLS certificate the director's
// console is served with over HTTPS to a tablet, and its SHA-256
// fingerprint (of the DER certificate, as browsers show it). It is made on
// first use (ECDSA P-256, valid from now for ten years, for localhost and
// hosts: the names and addresses of this computer) and kept in tournament
// id's venue keys, so that its fingerprint stays the same across restarts
// of serve.
func (d *Director) ConsoleCertificate(ctx context.Context, id int64, hosts []string, now time.Time) (cert tls.Certificate, fingerprint [32]byte, err error) {
	var k tournament.VenueKeys
	err = d.db.Update(ctx, func(tx tournament.Tx) error {
		if _, err := load(tx, id); err != nil {
			return err
		}
		if k, err = tx.VenueKeys(id); err != nil || len(k.CertPEM) > 0 {
			return err
		}
		if k.CertPEM, k.KeyPEM, err = selfSigned(hosts, now); err != nil {
			return err
		}
		return tx.PutVenueKeys(id, k)
	})
	if err != nil {
		return tls.Certificate{}, fingerprint, err
	}
	if cert, err = tls.X509KeyPair(k.CertPEM, k.KeyPEM); err != nil {
		return tls.Certificate{}, fingerprint, fmt.Errorf("the console's certificate kept in the database: %w", err)
	}
	return cert, sha256.Sum256(cert.Certificate[0]), nil
}

// selfSigned makes a self-signed certificate and its key (PEM) for
// localhost and hosts (IP addresses or names), valid from now for ten
// years.
func selfSigned(hosts []string, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "otd director's console", Organization: []string{"otd"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("making the console's certificate: %w", err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), nil
}
