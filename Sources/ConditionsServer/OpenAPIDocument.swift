import ConditionsCore

/// `GET /v1/openapi.json`: every endpoint, its parameters, status codes and bodies, as
/// OpenAPI 3.1. Kept beside the router as a literal (a resource bundle would have to be
/// installed next to the binary); `OpenAPITests` fails when a route is registered without
/// being described here, or described without being registered.
enum OpenAPIDocument {
    static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "conditions serve",
    "version": "\#(Version.current)",
    "summary": "Outdoor conditions behind one URN address scheme, over HTTP.",
    "description": "The same URNs and the same JSON result objects as the conditions CLI (README, Output contract). Off loopback every endpoint but /healthz needs `Authorization: Bearer <token>`. Request errors are one line of JSON, `{\"error\": {\"kind\", \"message\"}}`, never cached. See docs/server.md.",
    "license": {
      "name": "see the repository"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:8080"
    }
  ],
  "security": [
    {},
    {
      "bearer": []
    }
  ],
  "paths": {
    "/v1/urn/{urn}": {
      "get": {
        "operationId": "resolveOne",
        "summary": "One URN's result, exactly as `conditions --format json` prints it.",
        "description": "The status follows the result: 200 for a result (a stale one too, marked `stale`), else by error kind. Results carry `Cache-Control: max-age=` the TTL left (0 for local sources), `ETag` and `Last-Modified`; errors `no-store`.",
        "parameters": [
          {
            "name": "urn",
            "in": "path",
            "required": true,
            "description": "A URN such as `pass:snoqualmie` or `moon:now`; may contain further colons.",
            "schema": {
              "type": "string",
              "maxLength": 1024
            },
            "example": "pass:snoqualmie"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The result.",
            "headers": {
              "Cache-Control": {
                "$ref": "#/components/headers/CacheControl"
              },
              "ETag": {
                "$ref": "#/components/headers/ETag"
              },
              "Last-Modified": {
                "$ref": "#/components/headers/LastModified"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Result"
                }
              }
            }
          },
          "304": {
            "$ref": "#/components/responses/NotModified"
          },
          "400": {
            "description": "`invalidURN` or `invalidArguments`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FailedResult"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "`notFound`, with `suggestions` when a close URN exists.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FailedResult"
                }
              }
            }
          },
          "414": {
            "$ref": "#/components/responses/URITooLong"
          },
          "500": {
            "description": "Any other failure kind (`internal`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FailedResult"
                }
              }
            }
          },
          "502": {
            "description": "The upstream failed: `upstream`, `badResponse`, `http`, `network` or `tooLarge`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FailedResult"
                }
              }
            }
          },
          "504": {
            "description": "The upstream did not answer within the source's timeout (`timeout`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FailedResult"
                }
              }
            }
          }
        }
      }
    },
    "/v1/resolve": {
      "get": {
        "operationId": "resolveMany",
        "summary": "Several URNs' results, in the order asked.",
        "description": "200 whenever the request is valid; a URN that fails is a failed result in its place, as in the CLI. Fresh (`max-age`) for as long as the least fresh result; `no-store` when any failed.",
        "parameters": [
          {
            "$ref": "#/components/parameters/URNs"
          },
          {
            "$ref": "#/components/parameters/Accept"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "$ref": "#/components/responses/Results"
          },
          "304": {
            "$ref": "#/components/responses/NotModified"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "414": {
            "$ref": "#/components/responses/URITooLong"
          }
        }
      },
      "post": {
        "operationId": "resolveManyPosted",
        "summary": "The same, the URNs as a JSON array body.",
        "parameters": [
          {
            "$ref": "#/components/parameters/Accept"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "At most 64 KiB.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/URNList"
              },
              "example": [
                "pass:all",
                "moon:now"
              ]
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Results"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "413": {
            "description": "The body is over 64 KiB (`tooLarge`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RequestError"
                }
              }
            }
          }
        }
      }
    },
    "/v1/events": {
      "get": {
        "operationId": "events",
        "summary": "Server-Sent Events: `initial` for each URN, then `change` whenever its state changes (the `watch` events).",
        "description": "One poller per URN and interval, shared by every client, on the source's TTL (a minute for local sources) or `every`. A comment line every 15 s keeps the stream alive.",
        "parameters": [
          {
            "$ref": "#/components/parameters/URNs"
          },
          {
            "name": "every",
            "in": "query",
            "required": false,
            "description": "Poll interval, 1s to 1d (`30s`, `5m`, `300`).",
            "schema": {
              "type": "string"
            },
            "example": "5m"
          }
        ],
        "responses": {
          "200": {
            "description": "An endless stream of `event: initial|change` and `data: <Event>` lines.",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                },
                "x-event-data": {
                  "$ref": "#/components/schemas/Event"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "414": {
            "$ref": "#/components/responses/URITooLong"
          },
          "503": {
            "description": "The server is shutting down (`shuttingDown`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RequestError"
                }
              }
            }
          }
        }
      }
    },
    "/v1/routes": {
      "get": {
        "operationId": "routes",
        "summary": "The routing table, as `conditions routes --format json`.",
        "responses": {
          "200": {
            "description": "One entry per route.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Route"
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/v1/sources": {
      "get": {
        "operationId": "sources",
        "summary": "Configured source instances and available modules; never an option value.",
        "responses": {
          "200": {
            "description": "Instances and modules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Sources"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/v1/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "OpenAPI 3.1.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "summary": "Prometheus text exposition: requests, latency, upstream fetches, cache, coalescing, SSE clients, resolutions in flight.",
        "responses": {
          "200": {
            "description": "Metrics.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "health",
        "summary": "The process is alive; never needs the token.",
        "security": [
          {}
        ],
        "responses": {
          "200": {
            "description": "`ok`.",
            "content": {
              "text/plain": {
                "schema": {
                  "const": "ok\n"
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "ready",
        "summary": "The config is loaded and every routed source created.",
        "responses": {
          "200": {
            "description": "Ready.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "ready",
                    "sources",
                    "routes"
                  ],
                  "properties": {
                    "ready": {
                      "const": true
                    },
                    "sources": {
                      "type": "integer"
                    },
                    "routes": {
                      "type": "integer"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/": {
      "get": {
        "operationId": "dashboard",
        "summary": "The dashboard page: a card per URN, a map of the passes, the moon drawn (docs/dashboard.md).",
        "parameters": [
          {
            "name": "urn",
            "in": "query",
            "required": false,
            "description": "The URNs to show (at most 100); default: the config's `dashboard.urns`, else its `report` list.",
            "schema": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "maxItems": 100
            },
            "style": "form",
            "explode": true
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The page; a failed URN is a card like any other.",
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "304": {
            "$ref": "#/components/responses/NotModified"
          },
          "400": {
            "description": "More than 100 URNs: an HTML page naming the count (`tooManyURNs`).",
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "414": {
            "$ref": "#/components/responses/URITooLong"
          }
        }
      }
    },
    "/card": {
      "get": {
        "operationId": "dashboardCard",
        "summary": "One dashboard card as an HTML fragment, for the page's script to swap in after a change.",
        "parameters": [
          {
            "name": "urn",
            "in": "query",
            "required": true,
            "description": "Exactly one URN.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "id",
            "in": "query",
            "required": false,
            "description": "The card's element id on the page (`card-` and up to 120 lower-case letters, digits or '-').",
            "schema": {
              "type": "string",
              "pattern": "^card-[a-z0-9-]{0,120}$"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The card's `<article>`; never cached (`no-store`).",
            "content": {
              "text/html": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/assets/dashboard.css": {
      "get": {
        "operationId": "dashboardStylesheet",
        "summary": "The dashboard's stylesheet: cached for a year when asked for by its current `v`, else revalidated.",
        "parameters": [
          {
            "$ref": "#/components/parameters/AssetVersion"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The stylesheet.",
            "content": {
              "text/css": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "304": {
            "$ref": "#/components/responses/NotModified"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/assets/dashboard.js": {
      "get": {
        "operationId": "dashboardScript",
        "summary": "The dashboard's script: cached for a year when asked for by its current `v`, else revalidated.",
        "parameters": [
          {
            "$ref": "#/components/parameters/AssetVersion"
          },
          {
            "$ref": "#/components/parameters/IfNoneMatch"
          }
        ],
        "responses": {
          "200": {
            "description": "The script.",
            "content": {
              "text/javascript": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "304": {
            "$ref": "#/components/responses/NotModified"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "Required when the server listens off loopback (`--token`, CONDITIONS_SERVE_TOKEN or `\"serve\": {\"token\"}`)."
      }
    },
    "parameters": {
      "URNs": {
        "name": "urn",
        "in": "query",
        "required": true,
        "description": "1 to 100 URNs.",
        "schema": {
          "$ref": "#/components/schemas/URNList"
        },
        "style": "form",
        "explode": true,
        "example": [
          "pass:snoqualmie",
          "moon:now"
        ]
      },
      "AssetVersion": {
        "name": "v",
        "in": "query",
        "required": false,
        "description": "The asset's version as the page links it (16 hex digits of its digest).",
        "schema": {
          "type": "string"
        }
      },
      "IfNoneMatch": {
        "name": "If-None-Match",
        "in": "header",
        "required": false,
        "description": "An ETag from an earlier answer: 304 when it still matches.",
        "schema": {
          "type": "string"
        }
      },
      "Accept": {
        "name": "Accept",
        "in": "header",
        "required": false,
        "description": "`application/x-ndjson` for one result per line instead of a JSON array.",
        "schema": {
          "type": "string"
        }
      }
    },
    "headers": {
      "CacheControl": {
        "description": "`max-age=<seconds of the TTL left>` (0 for local sources), or `no-store` for errors.",
        "schema": {
          "type": "string"
        },
        "example": "max-age=287"
      },
      "ETag": {
        "description": "A strong validator of the body; send it back in `If-None-Match`.",
        "schema": {
          "type": "string"
        }
      },
      "LastModified": {
        "description": "The result's `fetchedAt` as an HTTP date.",
        "schema": {
          "type": "string"
        }
      }
    },
    "responses": {
      "Results": {
        "description": "The results in the order asked: a JSON array, or NDJSON with `Accept: application/x-ndjson`.",
        "content": {
          "application/json": {
            "schema": {
              "type": "array",
              "items": {
                "$ref": "#/components/schemas/AnyResult"
              }
            }
          },
          "application/x-ndjson": {
            "schema": {
              "type": "string",
              "description": "One AnyResult object per line."
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "$ref": "#/components/headers/CacheControl"
          },
          "ETag": {
            "$ref": "#/components/headers/ETag"
          },
          "Last-Modified": {
            "$ref": "#/components/headers/LastModified"
          }
        }
      },
      "NotModified": {
        "description": "The `If-None-Match` ETag still matches; no body."
      },
      "BadRequest": {
        "description": "No URN, more than 100 (`tooManyURNs`), a body that is not an array of strings, or a bad `every` (`invalidRequest`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/RequestError"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "No or a wrong bearer token (`unauthorized`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/RequestError"
            }
          }
        }
      },
      "URITooLong": {
        "description": "The URL is over 8 KiB (`tooLarge`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/RequestError"
            }
          }
        }
      }
    },
    "schemas": {
      "URNList": {
        "type": "array",
        "items": {
          "type": "string"
        },
        "minItems": 1,
        "maxItems": 100
      },
      "Result": {
        "type": "object",
        "required": [
          "urn",
          "route",
          "source",
          "fetchedAt",
          "data"
        ],
        "properties": {
          "urn": {
            "type": "string",
            "description": "The URN as asked."
          },
          "route": {
            "type": "string",
            "description": "The route pattern that matched, e.g. `pass:{name}`."
          },
          "source": {
            "type": "string",
            "description": "The source instance that answered."
          },
          "fetchedAt": {
            "type": "string",
            "format": "date-time"
          },
          "stale": {
            "const": true,
            "description": "Present when the upstream failed and a cached result stands in."
          },
          "age": {
            "type": "integer",
            "description": "With `stale`: seconds since the result was fetched."
          },
          "data": {
            "description": "The source's data; its shape is the result kind's (see each module's README)."
          }
        }
      },
      "FailedResult": {
        "type": "object",
        "required": [
          "urn",
          "error"
        ],
        "properties": {
          "urn": {
            "type": "string"
          },
          "error": {
            "type": "object",
            "required": [
              "kind",
              "message"
            ],
            "properties": {
              "kind": {
                "type": "string",
                "enum": [
                  "invalidURN",
                  "invalidArguments",
                  "notFound",
                  "upstream",
                  "badResponse",
                  "http",
                  "network",
                  "tooLarge",
                  "timeout",
                  "internal"
                ]
              },
              "message": {
                "type": "string"
              },
              "suggestions": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "description": "Close URNs, for `notFound`."
              }
            }
          }
        }
      },
      "AnyResult": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/Result"
          },
          {
            "$ref": "#/components/schemas/FailedResult"
          }
        ]
      },
      "RequestError": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "kind",
              "message"
            ],
            "properties": {
              "kind": {
                "type": "string",
                "enum": [
                  "invalidRequest",
                  "tooManyURNs",
                  "tooLarge",
                  "unauthorized",
                  "notFound",
                  "methodNotAllowed",
                  "shuttingDown",
                  "internal"
                ]
              },
              "message": {
                "type": "string",
                "description": "One line naming the problem."
              }
            }
          }
        }
      },
      "Event": {
        "type": "object",
        "required": [
          "event",
          "urn",
          "at",
          "before",
          "after",
          "result"
        ],
        "properties": {
          "event": {
            "enum": [
              "initial",
              "change"
            ]
          },
          "urn": {
            "type": "string"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "before": {
            "type": [
              "string",
              "null"
            ],
            "description": "The state before (null for `initial`), e.g. `restricted`, `error: http`."
          },
          "after": {
            "type": "string"
          },
          "result": {
            "$ref": "#/components/schemas/AnyResult"
          }
        }
      },
      "Route": {
        "type": "object",
        "required": [
          "pattern",
          "source",
          "module",
          "examples"
        ],
        "properties": {
          "pattern": {
            "type": "string",
            "example": "pass:{name}"
          },
          "source": {
            "type": "string"
          },
          "module": {
            "type": "string"
          },
          "examples": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      },
      "Sources": {
        "type": "object",
        "required": [
          "instances",
          "modules"
        ],
        "properties": {
          "instances": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "id",
                "module",
                "ttl",
                "schemes"
              ],
              "properties": {
                "id": {
                  "type": "string"
                },
                "module": {
                  "type": "string"
                },
                "ttl": {
                  "type": "integer",
                  "description": "Seconds a result stays fresh; 0 for local sources."
                },
                "schemes": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                }
              }
            }
          },
          "modules": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "module",
                "serves"
              ],
              "properties": {
                "module": {
                  "type": "string"
                },
                "serves": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    }
  }
}
"""#
}

extension OpenAPIDocument {
    /// The document's bytes and ETag, made once.
    static let bytes = Array(text.utf8)
    static let etag = HTTPCaching.etag(bytes)
}
